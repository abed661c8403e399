import 'server-only'
import { databasePool } from '@/lib/db-pool'

export interface Health {
  status: 'ok' | 'unavailable'
  database: 'ok' | string
}

/**
 * Ready when the database answers; the start script waits for this before it reports the URL. On the
 * pool alone, not through the Prisma client: a web server's first health answer then waits for its
 * routes' modules and a connection, not for the client's query compiler (lib/db-pool.ts). `deep`:
 * through the client too, as the routes read (loading it, the first time).
 */
export async function checkHealth({ deep = false }: { deep?: boolean } = {}): Promise<Health> {
  try {
    if (deep) {
      const { db, sql } = await import('@/lib/sql')
      await sql`SELECT 1`.execute(db)
    } else await databasePool().query('SELECT 1')
    return { status: 'ok', database: 'ok' }
  } catch (e) {
    return { status: 'unavailable', database: (e as Error).message.split('\n')[0] }
  }
}
