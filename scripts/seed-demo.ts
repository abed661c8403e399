// Seeds the Northwind demo fleet into an empty database: `node --conditions=react-server --import tsx scripts/seed-demo.ts`
// from the project root, with DATABASE_URL and TOOLROOM_SECRET_KEY set (scripts/steps/seed-demo.ts).
// Prints what it did; exits 1 on error. `npm start` runs the same step in dist/prepare-data.cjs.
import '@/lib/check-config'
import { prisma } from '@/lib/db'
import { seedDemo } from './steps/seed-demo'

seedDemo().then(async (code) => {
  await prisma.$disconnect().catch(() => {})
  process.exit(code)
})
