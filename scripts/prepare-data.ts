// What `npm start` writes before it reports ready, in one process (each Node.js process that loads the
// Prisma client costs about a second of CPU at start, on cores the web server and gateway are
// starting on): the migrations, then the admin token (TOOLROOM_ADMIN_TOKEN) and, with --demo, the
// demo fleet. Exits 1 when a step failed, after the steps beside it have finished.
import '@/lib/check-config'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { prisma } from '@/lib/db'
import { ensureAdminToken } from './steps/ensure-admin-token'
import { migrateDatabase } from './steps/migrate-database'
import { seedDemo } from './steps/seed-demo'

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { demo: { type: 'boolean', default: false } } })
  if ((await migrateDatabase({ directory: path.join(__dirname, '..', 'prisma', 'migrations'), quiet: true })) !== 0) return 1
  const codes = await Promise.all([ensureAdminToken(), values.demo ? seedDemo() : 0])
  return Math.max(...codes)
}

void main().then(async (code) => {
  await prisma.$disconnect().catch(() => {})
  process.exit(code)
})
