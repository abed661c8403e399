import { PrismaPg } from '@prisma/adapter-pg'
import { PrismaClient } from '@/lib/generated/prisma/client'

// One client per process; Next's dev server reloads modules, so keep it on globalThis there.
const globalForPrisma = globalThis as unknown as { prisma?: PrismaClient }

function createClient() {
  // No check for DATABASE_URL here: `next build` imports this module without a database, and the
  // pool connects only on first use. npm start always sets it.
  const connectionString = process.env.DATABASE_URL
  return new PrismaClient({
    adapter: new PrismaPg({ connectionString, max: Number(process.env.TOOLROOM_DB_POOL ?? 10) }),
  })
}

export const prisma: PrismaClient = globalForPrisma.prisma ?? createClient()
if (process.env.NODE_ENV !== 'production') globalForPrisma.prisma = prisma
