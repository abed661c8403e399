// Integration tests need a real PostgreSQL: `npm test` provides one. Run alone, they fail loudly
// rather than skip when there is none.
import { afterAll, afterEach, expect } from 'vitest'
import { copyOfDatabase } from '../../scripts/fresh-database.mjs'

// Every answer a route gives in these tests is parsed against its contract (lib/http/response-check.ts).
process.env.TOOLROOM_CHECK_RESPONSES = '1'

if (!process.env.DATABASE_URL) throw new Error('integration tests need DATABASE_URL (run them with `npm test`, which starts a database)')
if (!process.env.TOOLROOM_SECRET_KEY) throw new Error('integration tests need TOOLROOM_SECRET_KEY (set by `npm test`)')

// Files run in parallel, each on a database of its own: a copy of the migrated one DATABASE_URL names
// (CREATE DATABASE … TEMPLATE copies it in a moment; migrating each copy would take seconds). Set
// before any module reads DATABASE_URL, so this file's processes and children all use the copy.
// The migrated database is remembered apart: a process that ran another file before copies it, not that file's copy.
process.env.TOOLROOM_TEST_TEMPLATE_URL ??= process.env.DATABASE_URL
process.env.DATABASE_URL = await databaseOfThisFile(process.env.TOOLROOM_TEST_TEMPLATE_URL)

afterAll(async () => {
  const { prisma } = await import('@/lib/db')
  await prisma.$disconnect()
})

afterEach(async () => {
  const { responseMismatches } = await import('@/lib/http/response-check')
  const found = responseMismatches.splice(0)
  expect(found, 'answers that do not match their route contract').toEqual([])
})

async function databaseOfThisFile(template: string) {
  // A name of this file's own: its process (each file runs in a process of its own) and Vitest's
  // worker id. A name per pool slot was shared in a full run (unit and integration projects), and
  // the second file's copy ended the first one's sessions. The copies are dropped when the run ends
  // (scripts/test.mjs), once no file's connections are left to end.
  return copyOfDatabase(template, `${new URL(template).pathname.slice(1)}_p${process.pid}_${process.env.VITEST_WORKER_ID ?? '0'}`)
}
