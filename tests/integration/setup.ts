// Integration tests need a real PostgreSQL: `npm test` provides one. Run alone, they fail loudly
// rather than skip when there is none.
import { afterAll } from 'vitest'

if (!process.env.DATABASE_URL) throw new Error('integration tests need DATABASE_URL (run them with `npm test`, which starts a database)')
if (!process.env.TOOLROOM_SECRET_KEY) throw new Error('integration tests need TOOLROOM_SECRET_KEY (set by `npm test`)')

afterAll(async () => {
  const { prisma } = await import('@/lib/db')
  await prisma.$disconnect()
})
