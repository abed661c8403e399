import 'server-only'
import pg from 'pg'
import { config } from '@/lib/config'
import { trackPool } from '@/lib/observability/metrics'

// The process's one pg pool, which the Prisma client (lib/db.ts) runs on. Apart from the client so
// that what needs only a connection (the health check) does not load Prisma: the client's first
// query builds its query compiler from WebAssembly, a few hundred milliseconds of one core that
// a web server's start would otherwise spend before its first health answer (BENCHMARKS.md, "Start
// and stop").
const globalForPool = globalThis as unknown as { __toolroomDatabasePool?: pg.Pool }

function createPool(): pg.Pool {
  // No check for DATABASE_URL here: `next build` imports this module without a database, and the
  // pool connects only on first use. npm start always sets it.
  const { DATABASE_URL, TOOLROOM_DB_POOL } = config()
  const pool = new pg.Pool({ connectionString: DATABASE_URL, max: TOOLROOM_DB_POOL })
  trackPool('prisma', pool)
  return pool
}

/** The pool, made on first use; one per process, which Next's dev server reloading modules does not multiply. */
export function databasePool(): pg.Pool {
  return (globalForPool.__toolroomDatabasePool ??= createPool())
}
