// Reads for the Discovery page and the API: recent runs and surface changes, newest first.
import { prisma } from '@/lib/db'
import { decodeTimeCursor, encodeCursor } from '@/lib/http/pagination'

export interface DiscoveryFilters {
  subjectKind?: string
  subjectId?: string
  status?: string
  limit: number
  cursor?: string
}

interface Timed {
  id: string
}

// Keyset pages over (time, id) descending; the cursor codec carries the time in its first slot.
async function newestFirst<T extends Timed>(
  f: DiscoveryFilters,
  timeField: string,
  find: (args: { where: object; orderBy: object[]; take: number }) => Promise<T[]>,
) {
  const after = f.cursor ? decodeTimeCursor(f.cursor) : null
  const rows = await find({
    where: {
      ...(f.subjectKind ? { subjectKind: f.subjectKind } : {}),
      ...(f.subjectId ? { subjectId: f.subjectId } : {}),
      ...(f.status ? { status: f.status } : {}),
      ...(after ? { OR: [{ [timeField]: { lt: after.at } }, { [timeField]: after.at, id: { lt: after.id } }] } : {}),
    },
    orderBy: [{ [timeField]: 'desc' }, { id: 'desc' }],
    take: f.limit + 1,
  })
  const items = rows.slice(0, f.limit)
  const last = items[items.length - 1] as (T & Record<string, unknown>) | undefined
  const nextCursor = rows.length > f.limit && last ? encodeCursor({ namespace: (last[timeField] as Date).toISOString(), name: '', id: last.id }) : null
  return { items, nextCursor }
}

export const listDiscoveryRuns = (f: DiscoveryFilters) => newestFirst(f, 'startedAt', (args) => prisma.discoveryRun.findMany(args))
export const listSurfaceChanges = (f: DiscoveryFilters) => newestFirst(f, 'detectedAt', (args) => prisma.surfaceChange.findMany(args))
