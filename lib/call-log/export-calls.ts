// Calls leave Toolroom as NDJSON (docs/design/call-log.md, "Export"): one ToolCallDetail per line,
// oldest first, streamed page by page, for a log store or SIEM to keep what the call log drops after
// TOOLROOM_CALL_RETENTION_DAYS. Each record is the stored row, so it is exactly as redacted as the
// call log itself: arguments and results only where the tool's observability allowed them, its
// redactFields masked and the gateway's injected secrets scrubbed before they were ever written.
import 'server-only'
import { prisma } from '@/lib/db'

const PAGE = 1000

export interface CallExportRange {
  since: Date
  until: Date
}

export async function exportCalls({ since, until }: CallExportRange): Promise<ReadableStream<Uint8Array>> {
  // Keyset over (startedAt, id) within the range: each page reads only the days (partitions) it
  // needs, in index order, and memory stays one page deep however many calls the range holds; a slow
  // reader slows the reads (pull-based backpressure).
  let after: { startedAt: Date; id: string } | null = null
  const encoder = new TextEncoder()
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const rows = await prisma.toolCall.findMany({
          where: {
            startedAt: { gte: since, lt: until },
            ...(after ? { OR: [{ startedAt: { gt: after.startedAt } }, { startedAt: after.startedAt, id: { gt: after.id } }] } : {}),
          },
          orderBy: [{ startedAt: 'asc' }, { id: 'asc' }],
          take: PAGE,
        })
        if (rows.length > 0) {
          const last = rows[rows.length - 1]
          after = { startedAt: last.startedAt, id: last.id }
          controller.enqueue(encoder.encode(rows.map((r) => `${JSON.stringify(r)}\n`).join('')))
        }
        if (rows.length < PAGE) controller.close()
      },
    },
    { highWaterMark: 1 },
  )
}
