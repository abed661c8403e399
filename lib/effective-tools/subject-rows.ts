// The stored agent or unit an answer is about, read as getRow reads it (by id, else by namespace and
// name), with the reads of concurrent answers batched into one query (batched-loads.ts).
import 'server-only'
import { prisma } from '@/lib/db'
import { KIND_ADAPTERS, type Row } from '@/lib/resources/kind-adapters'
import { getRow } from '@/lib/resources/resource-store'
import { batchedLoads } from './batched-loads'
import { isUuid } from '@/lib/refs/uuid'

type Subject = 'Agent' | 'Unit'
interface Ask {
  idOrName: string
  namespace: string | undefined
}

// Text PostgreSQL cannot compare fails its query: such an ask goes alone, never in another's batch.
const UNCOMPARABLE = /[\u0000\ud800-\udfff]/

function rowsOf(kind: Subject) {
  return batchedLoads<Ask, Row | null>(async (asks) => {
    const byId = asks.filter((a) => isUuid(a.idOrName)).map((a) => a.idOrName.toLowerCase())
    const byName = asks.map((a) => ({ namespace: a.namespace ?? 'default', name: a.idOrName }))
    const rows = await KIND_ADAPTERS[kind].delegate(prisma).findMany({ where: { OR: [...(byId.length ? [{ id: { in: byId } }] : []), ...byName] } })
    const ids = new Map(rows.map((r) => [r.id, r]))
    const nameKey = (namespace: string, name: string) => JSON.stringify([namespace, name])
    const names = new Map(rows.map((r) => [nameKey(r.namespace, r.name), r]))
    // An id wins over a name that happens to be the same text, as in getRow.
    return asks.map(
      (a) => (isUuid(a.idOrName) ? ids.get(a.idOrName.toLowerCase()) : undefined) ?? names.get(nameKey(a.namespace ?? 'default', a.idOrName)) ?? null,
    )
  })
}

const loads: Record<Subject, (ask: Ask) => Promise<Row | null>> = { Agent: rowsOf('Agent'), Unit: rowsOf('Unit') }

/** getRow of an agent or unit, batched with the concurrent ones; not found and failures are getRow's own. */
export async function subjectRow(kind: Subject, idOrName: string, namespace: string | undefined): Promise<Row> {
  if (UNCOMPARABLE.test(idOrName + (namespace ?? ''))) return getRow(kind, idOrName, namespace)
  const row = await loads[kind]({ idOrName, namespace }).catch(() => null)
  // Missing, or its batch failed (another ask's fault, or the database's): asked alone, whose
  // answer (the row, a 404, the error) is this ask's own.
  return row ?? getRow(kind, idOrName, namespace)
}
