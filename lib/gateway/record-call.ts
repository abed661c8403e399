// Writes ToolCall rows. Calls finishing at about the same time share one INSERT (group commit): each
// caller still waits until its own row is committed, so every answered call is durably recorded, but
// under load the database sees one statement and one WAL flush per batch instead of one per call.
// The hot path writes through a small pg pool of its own rather than Prisma: one call record is the
// gateway's only per-call write, and the ORM's per-query work was a measurable share of a call.
// TOOLROOM_GATEWAY_ASYNC_COMMIT=1 commits call records without waiting for the WAL flush
// (synchronous_commit=off): a PostgreSQL crash can then lose the last fraction of a second of call
// records (never registry data); see BENCHMARKS.md for what each choice costs.
import 'server-only'
import type { CompiledQuery, Selectable } from 'kysely'
import pg from 'pg'
import { sendClosedCall, sendRecordedCalls } from '@/lib/call-log/send-call-logs'
import { config } from '@/lib/config'
import { trackPool } from '@/lib/observability/metrics'
import { db, sql, type Tables } from '@/lib/sql'
import { storableJson, storableText } from '@/lib/storage/storable-text'

export interface CallRecord {
  id: string
  startedAt: Date
  finishedAt: Date | null
  agentId: string
  agentNamespace: string
  agentName: string
  unit: string | null
  toolId: string
  toolNamespace: string
  /** The resolved tool (lib/stats/tool-stat-key.ts); null when the caller's set has no such tool. */
  toolKey: string | null
  provenance: string
  level: string | null
  channel: 'mcp' | 'rest' | 'ingest'
  outcome: string
  errorCode: string | null
  errorMessage: string | null
  /** What the upstream answered with its failure, redacted and bounded (redact.ts upstreamExcerpt). */
  upstreamExcerpt?: string | null
  latencyMs: number | null
  attempts: number
  idempotencyKey: string | null
  args: unknown
  result: unknown
  requestId: string | null
  /** The person the call was made for (lib/identity/person.ts onBehalfOfColumns); absent or null for nobody. */
  onBehalfOfIssuer?: string | null
  onBehalfOfSubject?: string | null
  onBehalfOfDisplayName?: string | null
}

const MAX_BATCH = 500
const queue: Array<{ record: CallRecord; done: (e?: unknown) => void }> = []

// Every call is recorded, whatever text it carries: what PostgreSQL cannot hold (NUL, unpaired
// surrogates, from arguments, results, tool names or upstream errors) is stored in a safe form.
function storable(record: CallRecord): CallRecord {
  const text = (v: string | null) => (v === null ? null : storableText(v))
  return {
    ...record,
    agentName: storableText(record.agentName),
    toolId: storableText(record.toolId),
    toolNamespace: storableText(record.toolNamespace),
    errorCode: text(record.errorCode),
    errorMessage: text(record.errorMessage),
    upstreamExcerpt: text(record.upstreamExcerpt ?? null),
    idempotencyKey: text(record.idempotencyKey),
    requestId: text(record.requestId),
    onBehalfOfIssuer: text(record.onBehalfOfIssuer ?? null),
    onBehalfOfSubject: text(record.onBehalfOfSubject ?? null),
    onBehalfOfDisplayName: text(record.onBehalfOfDisplayName ?? null),
    args: storableJson(record.args),
    result: storableJson(record.result),
  }
}

export function recordCall(record: CallRecord): Promise<void> {
  return new Promise((resolve, reject) => {
    queue.push({ record: storable(record), done: (e) => (e ? reject(e) : resolve()) })
    pump()
  })
}

const pools = globalThis as { __toolroomCallPool?: pg.Pool }
function callPool(): pg.Pool {
  pools.__toolroomCallPool ??= new pg.Pool({
    connectionString: config().DATABASE_URL,
    max: config().TOOLROOM_GATEWAY_RECORD_POOL,
    ...(config().TOOLROOM_GATEWAY_ASYNC_COMMIT ? { options: '-c synchronous_commit=off' } : {}),
  })
  // An idle connection the server closed (restart, failover) must not take the gateway down.
  if (pools.__toolroomCallPool.listenerCount('error') === 0)
    pools.__toolroomCallPool.on('error', (e) => console.warn('[gateway] call-record connection lost:', e.message))
  trackPool('call_records', pools.__toolroomCallPool)
  return pools.__toolroomCallPool
}

// One batch is written at a time: the calls that finish while it commits make the next batch, one
// statement and one WAL flush for all of them. With two at a time each batch held about half as many
// calls (at 20 connections 0.3–0.6 commits per call against ~0.2), and every extra statement costs
// the gateway a round trip's CPU and PostgreSQL a commit (BENCHMARKS.md, "Gateway: cost per call").
const MAX_IN_FLIGHT = 1
let inFlight = 0

function pump() {
  while (inFlight < MAX_IN_FLIGHT && queue.length > 0) {
    const batch = queue.splice(0, MAX_BATCH)
    inFlight++
    const records = batch.map((b) => b.record)
    // Named, so each connection parses and plans the statement once (its text is the same every batch).
    withDayPartitions(records, (query) =>
      callPool().query({ name: query.query.kind === 'InsertQueryNode' ? 'toolroom_record_calls' : undefined, text: query.sql, values: [...query.parameters] }),
    )
      .then(
        () => {
          sendRecordedCalls(records)
          batch.forEach((b) => b.done())
        },
        (e) => batch.forEach((b) => b.done(e)),
      )
      .finally(() => {
        inFlight--
        pump()
      })
  }
}

const RECORDED_COLUMNS = [
  'id',
  'startedAt',
  'finishedAt',
  'agentId',
  'agentNamespace',
  'agentName',
  'unit',
  'toolId',
  'toolNamespace',
  'toolKey',
  'provenance',
  'level',
  'channel',
  'outcome',
  'errorCode',
  'errorMessage',
  'upstreamExcerpt',
  'latencyMs',
  'attempts',
  'idempotencyKey',
  'args',
  'result',
  'requestId',
  'onBehalfOfIssuer',
  'onBehalfOfSubject',
  'onBehalfOfDisplayName',
] as const satisfies ReadonlyArray<keyof Tables['ToolCall']>

// Rows as one JSON array, expanded by the table's own row type: one statement however many rows.
// The gateway runs it on its own pool (above), so it is compiled here and executed by the caller.
// Its text is the same for every batch (the rows are its one parameter), so it is built once:
// building it per batch cost more gateway CPU than any other step of writing a call
// (BENCHMARKS.md, "Gateway: cost per call").
let insertTemplate: CompiledQuery | null = null

function insertRecords(records: CallRecord[]): CompiledQuery {
  insertTemplate ??= compileInsert('[]')
  return { ...insertTemplate, parameters: [JSON.stringify(records)] }
}

function compileInsert(rowsJson: string): CompiledQuery {
  const rows = sql<Selectable<Tables['ToolCall']>>`json_populate_recordset(NULL::${sql.table('ToolCall')}, ${rowsJson}::json)`.as('r')
  const compiled = db
    .insertInto('ToolCall')
    .columns(RECORDED_COLUMNS)
    .expression(db.selectFrom(rows).select(RECORDED_COLUMNS))
    .onConflict((oc) => oc.columns(['id', 'startedAt']).doNothing())
    .compile()
  // The template is only right while the rows are its one parameter.
  if (compiled.parameters.length !== 1) throw new Error(`the call-record INSERT has ${compiled.parameters.length} parameters, not 1`)
  return compiled
}

// A call whose day has no partition yet (the worker creates them a week ahead: a worker down longer,
// an ingested call of a day already dropped) fails with "no partition of relation … found for row".
// The call is still recorded: its days' partitions are created and the batch written again. A default
// partition would take such rows without this, but it forbids DETACH … CONCURRENTLY, so dropping a day
// would stall every writer (docs/design/call-log.md, "A call without a partition").
// Matched by its text: Prisma wraps the SQLSTATE (23514, shared with every CHECK) in errors of its own.
const NO_PARTITION = (e: unknown) => e instanceof Error && /no partition of relation "ToolCall" found for row/.test(e.message)

async function withDayPartitions<T>(records: CallRecord[], run: (query: CompiledQuery) => Promise<T>): Promise<T> {
  const insert = insertRecords(records)
  try {
    return await run(insert)
  } catch (e) {
    if (!NO_PARTITION(e)) throw e
    const days = [...new Set(records.map((r) => new Date(r.startedAt).toISOString().slice(0, 10)))]
    // toolroom_call_partition is SQL-only (docs/design/call-log.md): it creates a day's partition.
    await run(sql`SELECT toolroom_call_partition(day) FROM unnest(${days}::date[]) AS day`.compile(db))
    return run(insert)
  }
}

/** One INSERT for many rows (the same statement as the gateway's batches); a row whose id is already recorded is skipped. Returns how many were written. */
export async function insertCalls(records: CallRecord[]): Promise<number> {
  if (records.length === 0) return 0
  const rows = records.map(storable)
  const written = await withDayPartitions(rows, async (query) => Number((await db.executeQuery(query)).numAffectedRows ?? 0))
  // A row already recorded (an ingest re-sent) is sent again: the export is at least once per call id.
  sendRecordedCalls(rows)
  return written
}

/** Closes a call recorded earlier as pending_approval, once it ran (or will not run) after the decision. */
export async function updateCallOutcome(
  id: string,
  update: Pick<CallRecord, 'outcome' | 'errorCode' | 'errorMessage' | 'upstreamExcerpt' | 'latencyMs' | 'attempts' | 'result'> & { args?: unknown },
): Promise<void> {
  const errorMessage = update.errorMessage === null ? null : storableText(update.errorMessage)
  const upstreamExcerpt = update.upstreamExcerpt ? storableText(update.upstreamExcerpt) : null
  const stored = update.result === null || update.result === undefined ? null : storableJson(update.result)
  const result = stored === null ? null : JSON.stringify(stored)
  await db
    .updateTable('ToolCall')
    .set({
      outcome: update.outcome,
      finishedAt: sql<Date>`now()`,
      errorCode: update.errorCode,
      errorMessage,
      upstreamExcerpt,
      latencyMs: update.latencyMs,
      attempts: update.attempts,
      result: sql`${result}::json`,
    })
    .where('id', '=', id)
    .execute()
  sendClosedCall({
    id,
    outcome: update.outcome,
    errorCode: update.errorCode,
    errorMessage,
    upstreamExcerpt,
    latencyMs: update.latencyMs,
    attempts: update.attempts,
    result: stored,
    finishedAt: new Date(),
  })
}
