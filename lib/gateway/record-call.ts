// Writes ToolCall rows. Calls finishing at about the same time share one INSERT (group commit): each
// caller still waits until its own row is committed, so every answered call is durably recorded, but
// under load the database sees one statement per batch instead of one per call.
import { prisma } from '@/lib/db'

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
  provenance: string
  level: string | null
  channel: 'mcp' | 'rest' | 'ingest'
  outcome: string
  errorCode: string | null
  errorMessage: string | null
  latencyMs: number | null
  attempts: number
  idempotencyKey: string | null
  args: unknown
  result: unknown
  requestId: string | null
}

const MAX_BATCH = 500
const queue: Array<{ record: CallRecord; done: (e?: unknown) => void }> = []
let flushing = false

export function recordCall(record: CallRecord): Promise<void> {
  return new Promise((resolve, reject) => {
    queue.push({ record, done: (e) => (e ? reject(e) : resolve()) })
    if (!flushing) void flush()
  })
}

async function flush() {
  flushing = true
  while (queue.length > 0) {
    const batch = queue.splice(0, MAX_BATCH)
    try {
      await insertCalls(batch.map((b) => b.record))
      for (const b of batch) b.done()
    } catch (e) {
      for (const b of batch) b.done(e)
    }
  }
  flushing = false
}

/** One INSERT for many rows; a row whose id is already recorded is skipped. Returns how many were written. */
export async function insertCalls(records: CallRecord[], db: Pick<typeof prisma, '$executeRaw'> = prisma): Promise<number> {
  if (records.length === 0) return 0
  return db.$executeRaw`
    INSERT INTO "ToolCall" (id, "startedAt", "finishedAt", "agentId", "agentNamespace", "agentName", unit, "toolId", "toolNamespace",
      provenance, level, channel, outcome, "errorCode", "errorMessage", "latencyMs", attempts, "idempotencyKey", args, result, "requestId")
    SELECT id, "startedAt", "finishedAt", "agentId", "agentNamespace", "agentName", unit, "toolId", "toolNamespace",
      provenance, level, channel, outcome, "errorCode", "errorMessage", "latencyMs", attempts, "idempotencyKey", args, result, "requestId"
    FROM json_populate_recordset(NULL::"ToolCall", ${JSON.stringify(records)}::json)
    ON CONFLICT (id) DO NOTHING`
}
