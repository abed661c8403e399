// The gateway's own small pg pool, for the two statements every call may make: counting it against
// its rate limits (rate-limit.ts) and recording it (record-call.ts). Through Prisma, each statement's
// per-query work was a measurable share of a call (BENCHMARKS.md, "Gateway: cost per call").
// TOOLROOM_GATEWAY_ASYNC_COMMIT=1 commits both without waiting for the WAL flush
// (synchronous_commit=off): a PostgreSQL crash can then lose the last fraction of a second of call
// records and rate counts (never registry data).
import 'server-only'
import pg from 'pg'
import { config } from '@/lib/config'
import { trackPool } from '@/lib/observability/metrics'

const pools = globalThis as { __toolroomCallPool?: pg.Pool }

export function callPool(): pg.Pool {
  pools.__toolroomCallPool ??= new pg.Pool({
    connectionString: config().DATABASE_URL,
    max: config().TOOLROOM_GATEWAY_RECORD_POOL,
    ...(config().TOOLROOM_GATEWAY_ASYNC_COMMIT ? { options: '-c synchronous_commit=off' } : {}),
  })
  // An idle connection the server closed (restart, failover) must not take the gateway down.
  if (pools.__toolroomCallPool.listenerCount('error') === 0)
    pools.__toolroomCallPool.on('error', (e) => console.warn('[gateway] call pool connection lost:', e.message))
  // Named for what it first held; dashboards already read it under this name.
  trackPool('call_records', pools.__toolroomCallPool)
  return pools.__toolroomCallPool
}
