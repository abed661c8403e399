// Integration tests need a real PostgreSQL: `npm test` provides one. Run alone, they fail loudly
// rather than skip when there is none.
import { afterAll, afterEach, expect, vi } from 'vitest'
import { copyOfDatabase } from '../../scripts/fresh-database.mjs'

// The files a worker runs share its process and the packages it imported (vitest.config.mts,
// `isolate: false`); each starts from the state a process of its own would have: the environment as
// the file found it, our modules evaluated again, no state of ours left on globalThis
// (docs/design/testing.md, "Integration files share a process").
const environmentAtStart = { ...process.env }

// Every answer a route gives in these tests is parsed against its contract (lib/http/response-check.ts).
process.env.TOOLROOM_CHECK_RESPONSES = '1'

if (!process.env.DATABASE_URL) throw new Error('integration tests need DATABASE_URL (run them with `npm test`, which starts a database)')
if (!process.env.TOOLROOM_SECRET_KEY) throw new Error('integration tests need TOOLROOM_SECRET_KEY (set by `npm test`)')

// Files run in parallel, each on a database of its own: a copy of the migrated one DATABASE_URL names
// (CREATE DATABASE … TEMPLATE copies it in a moment; migrating each copy would take seconds). Set
// before any module reads DATABASE_URL, so this file's modules and children all use the copy.
process.env.TOOLROOM_TEST_TEMPLATE_URL ??= process.env.DATABASE_URL
process.env.DATABASE_URL = await databaseOfThisFile(process.env.TOOLROOM_TEST_TEMPLATE_URL)
// Put back as this file's database, never the migrated one: whatever of this file still runs after it
// ended and reads the environment again (a lazy import evaluates our modules afresh) must not hold a
// connection to the database the next files are copied from (CREATE DATABASE … TEMPLATE refuses then).
environmentAtStart.TOOLROOM_TEST_TEMPLATE_URL = process.env.TOOLROOM_TEST_TEMPLATE_URL
environmentAtStart.DATABASE_URL = process.env.DATABASE_URL

afterEach(async () => {
  const { responseMismatches } = await import('@/lib/http/response-check')
  const found = responseMismatches.splice(0)
  expect(found, 'answers that do not match their route contract').toEqual([])
})

// Registered first, so it runs after the file's own afterAll hooks (Vitest runs them as a stack).
afterAll(async () => {
  await releaseProcessState()
  restoreEnvironment(environmentAtStart)
  vi.resetModules()
})

async function databaseOfThisFile(template: string) {
  // A name of this file's own: its process, Vitest's worker id and how many files this process ran
  // before. A name per pool slot was shared in a full run (unit and integration projects), and the
  // second file's copy ended the first one's sessions. The copies are dropped when the run ends
  // (scripts/test.mjs), once no file's connections are left to end.
  const counter = globalThis as { integrationFilesRun?: number }
  const nth = (counter.integrationFilesRun = (counter.integrationFilesRun ?? 0) + 1)
  return copyOfDatabase(template, `${new URL(template).pathname.slice(1)}_p${process.pid}_${process.env.VITEST_WORKER_ID ?? '0'}_${nth}`)
}

type HeldState = Record<string | symbol, unknown> & {
  __toolroomBoss?: { boss: unknown }
  __toolroomRegistryChanges?: { client: unknown }
  __toolroomCallPool?: { end(): Promise<void> }
  __toolroomDatabasePool?: { end(): Promise<void>; ended: boolean }
  __toolroomChangeFeed?: { timer: ReturnType<typeof setTimeout> | null }
}

/**
 * Closes what this file's modules hold open for the process (database clients and listeners, the job
 * queue, tracing) and forgets every state of ours kept on globalThis (named `__toolroom…`,
 * `Symbol.for('toolroom.…')`, `prisma`, `toolroomAuth`: tests/unit/integration-sharing.test.ts holds
 * lib/ to those names), so the next file's modules start over on its own database.
 */
async function releaseProcessState() {
  const held = globalThis as unknown as HeldState
  const { prisma } = await import('@/lib/db')
  await prisma.$disconnect()
  // The client leaves the pool it was given open (lib/db-pool.ts): its connections belong to this file.
  if (held.__toolroomDatabasePool && !held.__toolroomDatabasePool.ended) await held.__toolroomDatabasePool.end()
  if (held.__toolroomBoss?.boss) await (await import('@/lib/jobs/boss')).stopBoss()
  if (held.__toolroomRegistryChanges?.client) await (await import('@/lib/registry/registry-changes')).stopListeningForTests()
  await held.__toolroomCallPool?.end()
  if (held.__toolroomChangeFeed?.timer) clearTimeout(held.__toolroomChangeFeed.timer)
  if ((held[Symbol.for('toolroom.tracing')] as { impl: unknown } | undefined)?.impl) await (await import('@/lib/observability/tracing')).stopTracing()
  for (const name of Object.getOwnPropertyNames(globalThis)) if (OUR_GLOBAL.test(name)) delete held[name]
  for (const symbol of Object.getOwnPropertySymbols(globalThis)) if (symbol.description?.startsWith('toolroom.')) delete held[symbol]
}
const OUR_GLOBAL = /^(__toolroom\w+|prisma|toolroomAuth)$/

function restoreEnvironment(environment: Record<string, string | undefined>) {
  for (const name of Object.keys(process.env)) if (!(name in environment)) delete process.env[name]
  for (const [name, value] of Object.entries(environment)) if (process.env[name] !== value) process.env[name] = value
}
