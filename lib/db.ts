import 'server-only'
import { PrismaPg } from '@prisma/adapter-pg'
import pg from 'pg'
import { config } from '@/lib/config'
import { PrismaClient } from '@/lib/generated/prisma/client'
import { trackPool } from '@/lib/observability/metrics'

// One client per process; Next's dev server reloads modules, so keep it on globalThis there.
const globalForPrisma = globalThis as unknown as { prisma?: PrismaClient }

function createClient() {
  // No check for DATABASE_URL here: `next build` imports this module without a database, and the
  // pool connects only on first use. npm start always sets it.
  const { DATABASE_URL, TOOLROOM_DB_POOL } = config()
  // Our own pool (the adapter takes it as it is), so the metrics can report its use.
  const pool = new pg.Pool({ connectionString: DATABASE_URL, max: TOOLROOM_DB_POOL })
  trackPool('prisma', pool)
  // 'minimal': the other formats capture a stack (a new Error) on every call, only to point at the
  // caller's line in an error's message: about 1 % of a full-fleet recompute's CPU (BENCHMARKS.md).
  // Our error handling logs an error with its own stack.
  return new PrismaClient({ adapter: new PrismaPg(pool), errorFormat: 'minimal' })
}

export const prisma: PrismaClient = globalForPrisma.prisma ?? createClient()
// NODE_ENV is Next.js's (it inlines it at build time), so it is read here as Next.js writes it, not from lib/config.ts.
if (process.env.NODE_ENV !== 'production') globalForPrisma.prisma = prisma
