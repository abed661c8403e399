// Reads for the Discovery page and the API: recent runs and surface changes, newest first.
import 'server-only'
import { prisma } from '@/lib/db'
import { afterTimeCursor, decodeTimeCursor, encodeTimeCursor, keysetPage } from '@/lib/http/pagination'

export interface DiscoveryFilters {
  subjectKind?: string
  subjectId?: string
  status?: string
  limit: number
  cursor?: string
}

// Keyset pages over (time, id), newest first, with the validated time cursor.
async function newestFirst<T extends { id: string }>(
  f: DiscoveryFilters,
  timeField: 'startedAt' | 'detectedAt',
  find: (args: { where: object; orderBy: object[]; take: number }) => Promise<T[]>,
) {
  const after = f.cursor ? decodeTimeCursor(f.cursor) : null
  const rows = await find({
    where: {
      ...(f.subjectKind ? { subjectKind: f.subjectKind } : {}),
      ...(f.subjectId ? { subjectId: f.subjectId } : {}),
      ...(f.status ? { status: f.status } : {}),
      ...(after ? afterTimeCursor(timeField, after, 'desc') : {}),
    },
    orderBy: [{ [timeField]: 'desc' }, { id: 'desc' }],
    take: f.limit + 1,
  })
  return keysetPage(rows, f.limit, (last) => encodeTimeCursor((last as T & Record<typeof timeField, Date>)[timeField], last.id))
}

export const listDiscoveryRuns = (f: DiscoveryFilters) => newestFirst(f, 'startedAt', (args) => prisma.discoveryRun.findMany(args))
export const listSurfaceChanges = (f: DiscoveryFilters) => newestFirst(f, 'detectedAt', (args) => prisma.surfaceChange.findMany(args))
