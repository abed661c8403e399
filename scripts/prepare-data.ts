// What `npm start` writes before it reports ready, in one process (each Node.js process that loads the
// Prisma client costs about a second of CPU at start, on cores the web server and gateway are
// starting on): the migrations, then the admin token (TOOLROOM_ADMIN_TOKEN) and, with --demo, the
// demo fleet. On a start that finds both written already (every start after the first) the Prisma
// client is never loaded (steps/data-settled.ts). With --when-told it loads its modules at once and
// waits for npm start's message that the database is up (PostgreSQL starting beside it). Exits 1
// when a step failed, after the steps beside it have finished.
import '@/lib/check-config'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { config } from '@/lib/config'
import { demoSkippedLine } from '@/lib/seed/demo-seed-rule'
import { embeddedDatabaseUrl } from './embedded-db-url.mjs'
import { dataSettled } from './steps/data-settled'
import { migrateDatabase } from './steps/migrate-database'

/** Resolves on the parent's first message; exits when the parent goes first. */
function told(): Promise<void> {
  return new Promise((resolve) => {
    process.once('message', () => resolve())
    process.once('disconnect', () => process.exit(1))
  })
}

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { demo: { type: 'boolean', default: false }, 'when-told': { type: 'boolean', default: false } } })
  if (values['when-told'] && process.send) await told()
  if ((await migrateDatabase({ directory: path.join(__dirname, '..', 'prisma', 'migrations'), quiet: true })) !== 0) return 1
  const settled = await dataSettled({ databaseUrl: config().DATABASE_URL ?? embeddedDatabaseUrl(), demo: values.demo })
  if (settled) {
    if (settled.demoSkipped) console.log(demoSkippedLine(settled.demoSkipped))
    return 0
  }
  // Loaded only now: the Prisma client and what the steps need.
  const [{ ensureAdminToken }, { seedDemo }, { prisma }] = await Promise.all([
    import('./steps/ensure-admin-token'),
    import('./steps/seed-demo'),
    import('@/lib/db'),
  ])
  try {
    const codes = await Promise.all([ensureAdminToken(), values.demo ? seedDemo() : 0])
    return Math.max(...codes)
  } finally {
    await prisma.$disconnect().catch(() => {})
  }
}

void main().then((code) => process.exit(code))
