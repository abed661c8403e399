import 'server-only'
import { db, sql } from '@/lib/sql'

/** Ready when the database answers; the start script waits for this before it reports the URL. */
export async function checkHealth(): Promise<{ status: 'ok' | 'unavailable'; database: 'ok' | string }> {
  try {
    await sql`SELECT 1`.execute(db)
    return { status: 'ok', database: 'ok' }
  } catch (e) {
    return { status: 'unavailable', database: (e as Error).message.split('\n')[0] }
  }
}
