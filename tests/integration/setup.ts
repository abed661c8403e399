// Integration tests need a real PostgreSQL: `npm test` provides one. Run alone, they fail loudly
// rather than skip when there is none.
import { afterAll, afterEach, expect } from 'vitest'

// Every answer a route gives in these tests is parsed against its contract (lib/http/response-check.ts).
process.env.TOOLROOM_CHECK_RESPONSES = '1'

if (!process.env.DATABASE_URL) throw new Error('integration tests need DATABASE_URL (run them with `npm test`, which starts a database)')
if (!process.env.TOOLROOM_SECRET_KEY) throw new Error('integration tests need TOOLROOM_SECRET_KEY (set by `npm test`)')

afterAll(async () => {
  const { prisma } = await import('@/lib/db')
  await prisma.$disconnect()
})

afterEach(async () => {
  const { responseMismatches } = await import('@/lib/http/response-check')
  const found = responseMismatches.splice(0)
  expect(found, 'answers that do not match their route contract').toEqual([])
})
