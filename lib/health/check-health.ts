import 'server-only'
import { databasePool } from '@/lib/db-pool'

/**
 * Ready when the database answers; the start script waits for this before it reports the URL. On the
 * pool alone, not through the Prisma client: a web server's first health answer then waits for its
 * routes' modules and a connection, not for the client's query compiler (lib/db-pool.ts).
 */
export async function checkHealth(): Promise<{ status: 'ok' | 'unavailable'; database: 'ok' | string }> {
  try {
    await databasePool().query('SELECT 1')
    return { status: 'ok', database: 'ok' }
  } catch (e) {
    return { status: 'unavailable', database: (e as Error).message.split('\n')[0] }
  }
}
