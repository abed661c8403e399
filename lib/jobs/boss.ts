// The job queue: pg-boss over the same PostgreSQL. One instance per process; the web process only
// sends, worker processes also fetch, supervise (expire and retry jobs of dead workers) and schedule.
import 'server-only'
import pg from 'pg'
import PgBoss from 'pg-boss'
import { config } from '@/lib/config'
import { JOB_CONTRACTS } from './job-contracts'

type Role = 'sender' | 'worker'
const state: { boss: Promise<PgBoss> | null } = ((globalThis as { __toolroomBoss?: { boss: Promise<PgBoss> | null } }).__toolroomBoss ??= { boss: null })

export function getBoss(role: Role = 'sender'): Promise<PgBoss> {
  state.boss ??= (async () => {
    const worker = role === 'worker'
    const boss = new PgBoss({
      connectionString: config().DATABASE_URL,
      schema: 'pgboss',
      max: worker ? 5 : 2,
      supervise: worker,
      schedule: worker,
      maintenanceIntervalSeconds: config().TOOLROOM_QUEUE_MAINTENANCE_SECONDS,
      ...(worker ? { monitorStateIntervalSeconds: 60 } : {}),
    })
    boss.on('error', (e) => console.error('[queue]', e.message))
    await boss.start()
    await ensureQueues(boss)
    return boss
  })().catch((e) => {
    state.boss = null
    throw e
  })
  return state.boss
}

// Processes starting together would deadlock creating the same queues: one at a time, under a
// database-wide advisory lock.
async function ensureQueues(boss: PgBoss) {
  const lock = new pg.Client({ connectionString: config().DATABASE_URL })
  await lock.connect()
  try {
    await lock.query(`SELECT pg_advisory_lock(hashtext('toolroom.job-queues'))`)
    for (const c of JOB_CONTRACTS) {
      const options = {
        name: c.name,
        policy: c.singletonKey ? ('stately' as const) : ('standard' as const),
        retryLimit: c.retryLimit,
        retryDelay: c.retryDelaySeconds,
        retryBackoff: true,
        expireInSeconds: c.expireInSeconds,
      }
      if (await boss.getQueue(c.name)) await boss.updateQueue(c.name, options)
      else await boss.createQueue(c.name, options)
    }
  } finally {
    await lock.end() // ends the session, which releases the lock
  }
}

export async function stopBoss(): Promise<void> {
  const boss = state.boss
  state.boss = null
  if (boss) await (await boss).stop({ graceful: true, timeout: 10_000, wait: true })
}
