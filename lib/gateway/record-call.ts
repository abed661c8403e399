// Writes ToolCall rows. Calls finishing at about the same time share one INSERT (group commit): each
// caller still waits until its own row is committed, so every answered call is durably recorded, but
// under load the database sees one statement and one WAL flush per batch instead of one per call.
// The hot path writes through the gateway's own pg pool (call-pool.ts) rather than Prisma.
import 'server-only'
import type { CompiledQuery, Selectable } from 'kysely'
import { sendClosedCall, sendRecordedCalls } from '@/lib/call-log/send-call-logs'
import { db, sql, type Tables } from '@/lib/sql'
import { storableJson, storableText } from '@/lib/storage/storable-text'
import { callPool } from './call-pool'
import { oneBatchAtATime } from './one-batch-at-a-time'

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

// Named, so each connection parses and plans the statement once (its text is the same every batch).
const writeRecords = oneBatchAtATime(async (records: CallRecord[]) => {
  await withDayPartitions(records, (query) =>
    callPool().query({ name: query.query.kind === 'InsertQueryNode' ? 'toolroom_record_calls' : undefined, text: query.sql, values: [...query.parameters] }),
  )
  sendRecordedCalls(records)
  return records.map(() => undefined)
}, MAX_BATCH)

export function recordCall(record: CallRecord): Promise<void> {
  return writeRecords(storable(record))
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
