// The worker's upkeep of the call log (docs/design/call-log.md): the partitions of today and the week
// ahead exist, and the days past TOOLROOM_CALL_RETENTION_DAYS leave whole: DETACH … CONCURRENTLY (no
// lock that stalls the gateway's writes, which keep going while it waits for older readers), then
// DROP of the detached table. Never a DELETE of the day's rows.
//
// A day holding a call that waits for a decision (a pending approval, or an approved one not yet run)
// is kept, and said so (log, toolroom_call_partitions_kept): the approval's worker updates that call
// row when it runs, and the agent reads it back with toolroom.approval_status.
import 'server-only'
import pg from 'pg'
import { config } from '@/lib/config'
import { observeCallPartitions } from '@/lib/observability/metrics'
import { daysAhead, partitionsPastRetention } from './call-partition-days'

export interface PartitionUpkeep {
  created: string[]
  dropped: string[]
  /** Past retention but holding calls that wait for approval: kept until they are decided and run. */
  kept: Array<{ partition: string; waitingCalls: number }>
}

// Partitions of ToolCall and whether a DETACH … CONCURRENTLY of them was interrupted (it then has to
// be finished with FINALIZE before anything else detaches).
const PARTITIONS_SQL = `
  SELECT c.relname AS name, i.inhdetachpending AS "detachPending"
    FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
   WHERE i.inhparent = 'public."ToolCall"'::regclass`

// Day tables detached but not dropped (a worker that died between the two statements).
const DETACHED_SQL = `
  SELECT c.relname AS name FROM pg_class c
   WHERE c.relnamespace = 'public'::regnamespace AND c.relkind = 'r' AND NOT c.relispartition AND c.relname LIKE 'ToolCall\\_p%'`

const WAITING_SQL = (partition: string) => `
  SELECT count(*)::int AS waiting FROM "ApprovalRequest" a JOIN public.${pg.escapeIdentifier(partition)} c ON c.id = a."callId"
   WHERE a.status = 'pending' OR (a.status = 'approved' AND (a.execution IS NULL OR a.execution IN ('queued', 'running')))`

export async function maintainCallPartitions({
  now = new Date(),
  retentionDays = config().TOOLROOM_CALL_RETENTION_DAYS,
  databaseUrl = config().DATABASE_URL,
}: { now?: Date; retentionDays?: number; databaseUrl?: string } = {}): Promise<PartitionUpkeep> {
  // A connection of its own: DETACH … CONCURRENTLY cannot run inside a transaction, and it waits for
  // every transaction that might still read the partition, which must not hold a pool's connection.
  const client = new pg.Client({ connectionString: databaseUrl, application_name: 'toolroom call-log upkeep' })
  await client.connect()
  try {
    const before = new Set((await client.query<{ name: string }>(PARTITIONS_SQL)).rows.map((r) => r.name))
    const ensured = await client.query<{ name: string }>('SELECT toolroom_call_partition(day) AS name FROM unnest($1::date[]) AS day', [daysAhead(now)])
    const created = ensured.rows.map((r) => r.name).filter((name) => !before.has(name))

    const partitions = (await client.query<{ name: string; detachPending: boolean }>(PARTITIONS_SQL)).rows
    const dropped: string[] = []
    const kept: PartitionUpkeep['kept'] = []
    const interrupted = new Set(partitions.filter((p) => p.detachPending).map((p) => p.name))
    for (const name of partitionsPastRetention(
      partitions.map((p) => p.name),
      now,
      retentionDays,
    )) {
      const table = pg.escapeIdentifier(name)
      if (!interrupted.has(name)) {
        const { waiting } = (await client.query<{ waiting: number }>(WAITING_SQL(name))).rows[0]
        if (waiting > 0) {
          kept.push({ partition: name, waitingCalls: waiting })
          continue
        }
        await client.query(`ALTER TABLE public."ToolCall" DETACH PARTITION public.${table} CONCURRENTLY`)
      } else await client.query(`ALTER TABLE public."ToolCall" DETACH PARTITION public.${table} FINALIZE`)
      await client.query(`DROP TABLE public.${table}`)
      dropped.push(name)
    }
    const attachedLeft = partitions.length - dropped.length
    // Left over by a worker that died between DETACH and DROP: only days past retention, never one
    // a writer is attaching (that one is attached when its transaction commits, or does not exist).
    const leftovers = (await client.query<{ name: string }>(DETACHED_SQL)).rows.map((r) => r.name)
    for (const name of partitionsPastRetention(leftovers, now, retentionDays)) {
      await client.query(`DROP TABLE IF EXISTS public.${pg.escapeIdentifier(name)}`)
      dropped.push(name)
    }
    observeCallPartitions({ partitions: attachedLeft, kept: kept.length, dropped: dropped.length })
    return { created, dropped, kept }
  } finally {
    await client.end()
  }
}
