// Reads for the Discovery page and the API: recent runs, and surface changes.
import { prisma } from '@/lib/db'
import { decodeCursor, encodeCursor } from '@/lib/http/pagination'

export interface RunFilters {
  subjectKind?: string
  subjectId?: string
  status?: string
  limit: number
  cursor?: string
}

// Newest first; the cursor reuses the (namespace, name, id) codec with the start time in `namespace`.
export async function listDiscoveryRuns(f: RunFilters) {
  const after = f.cursor ? decodeCursor(f.cursor) : null
  const rows = await prisma.discoveryRun.findMany({
    where: {
      ...(f.subjectKind ? { subjectKind: f.subjectKind } : {}),
      ...(f.subjectId ? { subjectId: f.subjectId } : {}),
      ...(f.status ? { status: f.status } : {}),
      ...(after ? { OR: [{ startedAt: { lt: new Date(after.namespace) } }, { startedAt: new Date(after.namespace), id: { lt: after.id } }] } : {}),
    },
    orderBy: [{ startedAt: 'desc' }, { id: 'desc' }],
    take: f.limit + 1,
  })
  const items = rows.slice(0, f.limit)
  const last = items[items.length - 1]
  return { items, nextCursor: rows.length > f.limit && last ? encodeCursor({ namespace: last.startedAt.toISOString(), name: '', id: last.id }) : null }
}

export async function listSurfaceChanges(f: RunFilters) {
  const after = f.cursor ? decodeCursor(f.cursor) : null
  const rows = await prisma.surfaceChange.findMany({
    where: {
      ...(f.subjectKind ? { subjectKind: f.subjectKind } : {}),
      ...(f.subjectId ? { subjectId: f.subjectId } : {}),
      ...(f.status ? { status: f.status } : {}),
      ...(after ? { OR: [{ detectedAt: { lt: new Date(after.namespace) } }, { detectedAt: new Date(after.namespace), id: { lt: after.id } }] } : {}),
    },
    orderBy: [{ detectedAt: 'desc' }, { id: 'desc' }],
    take: f.limit + 1,
  })
  const items = rows.slice(0, f.limit)
  const last = items[items.length - 1]
  return { items, nextCursor: rows.length > f.limit && last ? encodeCursor({ namespace: last.detectedAt.toISOString(), name: '', id: last.id }) : null }
}

