import 'server-only'
import { prisma } from '@/lib/db'

/** Ready when the database answers; the start script waits for this before it reports the URL. */
export async function checkHealth(): Promise<{ status: 'ok' | 'unavailable'; database: 'ok' | string }> {
  try {
    await prisma.$queryRaw`SELECT 1`
    return { status: 'ok', database: 'ok' }
  } catch (e) {
    return { status: 'unavailable', database: (e as Error).message.split('\n')[0] }
  }
}
