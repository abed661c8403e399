import 'server-only'
import { PrismaPg } from '@prisma/adapter-pg'
import { databasePool } from '@/lib/db-pool'
import { PrismaClient } from '@/lib/generated/prisma/client'

// One client per process; Next's dev server reloads modules, so keep it on globalThis there.
const globalForPrisma = globalThis as unknown as { prisma?: PrismaClient }

function createClient() {
  // Our own pool (the adapter takes it as it is), so the metrics can report its use.
  // 'minimal': the other formats capture a stack (a new Error) on every call, only to point at the
  // caller's line in an error's message: about 1 % of a full-fleet recompute's CPU (BENCHMARKS.md).
  // Our error handling logs an error with its own stack.
  return new PrismaClient({ adapter: new PrismaPg(databasePool()), errorFormat: 'minimal' })
}

export const prisma: PrismaClient = globalForPrisma.prisma ?? createClient()
// NODE_ENV is Next.js's (it inlines it at build time), so it is read here as Next.js writes it, not from lib/config.ts.
if (process.env.NODE_ENV !== 'production') globalForPrisma.prisma = prisma
