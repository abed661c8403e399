// The audit log as JSON Lines, oldest first, streamed page by page: memory stays one page deep
// however long the log is, and a slow reader slows the database reads (pull-based backpressure).
import 'server-only'
import { prisma } from '@/lib/db'
import { type AuditFilters, auditWhere, toAuditEventView } from './list-audit-events'

const PAGE = 500

export async function exportAuditEvents(f: AuditFilters): Promise<ReadableStream<Uint8Array>> {
  const where = auditWhere(f)
  // Events appended while the export runs are left for the next export, so it ends.
  const newest = await prisma.auditEvent.findFirst({ where, orderBy: { id: 'desc' }, select: { id: true } })
  const until = newest?.id ?? 0n
  let after = -1n
  const encoder = new TextEncoder()
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const rows = await prisma.auditEvent.findMany({ where: { AND: [where, { id: { gt: after, lte: until } }] }, orderBy: { id: 'asc' }, take: PAGE })
        if (rows.length > 0) {
          after = rows[rows.length - 1].id
          controller.enqueue(encoder.encode(rows.map((r) => `${JSON.stringify(toAuditEventView(r))}\n`).join('')))
        }
        if (rows.length < PAGE) controller.close()
      },
    },
    { highWaterMark: 1 },
  )
}
