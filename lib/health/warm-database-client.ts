import 'server-only'
import { WARM_DATABASE_CLIENT } from '@/scripts/web-warm-up.mjs'

/**
 * The web server answers its health checks on the pool alone (check-health.ts), so the Prisma client
 * loads with the first query through it: about half a second of CPU (BENCHMARKS.md, "Start and
 * stop"). Under `npm start`, which says so once it has printed ready, the client is loaded then, while
 * nobody waits, instead of in a person's first request. Resolves once told and loaded (or failed to:
 * the request that needs the client then tries again and says why). Without a supervisor (a container)
 * there is no channel, and nothing to wait for.
 */
export function warmDatabaseClientWhenTold(): Promise<void> {
  if (!process.send) return Promise.resolve()
  return new Promise((resolve) => {
    const onMessage = (message: unknown) => {
      if (message !== WARM_DATABASE_CLIENT) return
      process.off('message', onMessage)
      void (async () => {
        try {
          const { db, sql } = await import('@/lib/sql')
          await sql`SELECT 1`.execute(db)
        } catch {
          // Nothing to do here: see above.
        }
        resolve()
      })()
    }
    process.on('message', onMessage)
  })
}
