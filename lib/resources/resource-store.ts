// Generic reads and writes of registry resources, for every kind, through the kind adapters.
import 'server-only'
import { likeLiteral } from '@/lib/text/like-literal'
import { recordAuditEvent } from '@/lib/audit/record-audit-event'
import type { AuditContext } from '@/lib/audit/audit-actor'
import { type AuditDocument, auditDocument } from '@/lib/audit/audit-document'
import { prisma } from '@/lib/db'
import { AppError, notFound } from '@/lib/errors/app-error'
import { changeOfResources } from '@/lib/registry/change-subjects'
import { noteRegistryChange } from '@/lib/registry/registry-changes'
import { DEFAULT_PAGE_SIZE, keysetPage } from '@/lib/http/pagination'
import type { LabelSelector } from '@/lib/labels/label-selector'
import type { FieldChange } from '@/lib/manifests/document-changes'
import { type Kind, KINDS } from '@/lib/manifests/kinds'
import type { ValidDocument } from '@/lib/manifests/validate-document'
import { KIND_ADAPTERS, OMIT_COLUMNS, type Row } from './kind-adapters'
import { labelSelectorWhere } from './label-selector-where'
import { listOrder, type ResourceSort } from './list-order'
import { type ResourceView, toResourceView } from './resource-view'
import { refreshToolStatusAfter } from '@/lib/tools/refresh-tool-status'
import { sql, sqlIn } from '@/lib/sql'
import { isUuid } from '@/lib/refs/uuid'

type Tx = Parameters<Parameters<typeof prisma.$transaction>[0]>[0]
type Db = typeof prisma | Tx

export interface ListFilters {
  namespace?: string
  q?: string
  /** Kubernetes label selector the resources' labels must satisfy. */
  labelSelector?: LabelSelector
  /** Kind-specific column filters (tool type, side-effect level, agent unit, bound connector, ...). */
  columns?: Record<string, unknown>
  limit?: number
  cursor?: string
  /** The order (lib/resources/list-order.ts); namespace, then name, by default. */
  sort?: ResourceSort
}

export interface Page<T> {
  items: T[]
  nextCursor: string | null
}

async function listRows(kind: Kind, filters: ListFilters, db: Db = prisma): Promise<Page<Row>> {
  const adapter = KIND_ADAPTERS[kind]
  const limit = filters.limit ?? DEFAULT_PAGE_SIZE
  const and: object[] = []
  if (filters.namespace) and.push({ namespace: filters.namespace })
  if (filters.q) {
    const contains = likeLiteral(filters.q)
    and.push({ OR: adapter.searchColumns.map((c) => ({ [c]: { contains, mode: 'insensitive' } })) })
  }
  if (filters.labelSelector) and.push(...labelSelectorWhere(filters.labelSelector))
  for (const [column, value] of Object.entries(filters.columns ?? {})) and.push({ [column]: value })
  const order = listOrder(filters.sort)
  if (filters.cursor) and.push(order.after(filters.cursor))
  const rows = await adapter.delegate(db).findMany({
    where: { AND: and },
    orderBy: order.orderBy,
    take: limit + 1,
    ...(OMIT_COLUMNS[kind] ? { omit: OMIT_COLUMNS[kind] } : {}),
  })
  return keysetPage(rows, limit, order.cursorOf)
}

export async function listResources(kind: Kind, filters: ListFilters): Promise<Page<ResourceView>> {
  const page = await listRows(kind, filters)
  return { items: page.items.map((row) => toResourceView(kind, row)), nextCursor: page.nextCursor }
}

/** Finds by id, or by name in `namespace` (default "default"); connectors by slug in any namespace. */
async function findRow(kind: Kind, idOrName: string, namespace: string | undefined, db: Db = prisma): Promise<Row | null> {
  const delegate = KIND_ADAPTERS[kind].delegate(db)
  const omit = OMIT_COLUMNS[kind] ? { omit: OMIT_COLUMNS[kind] } : {}
  if (isUuid(idOrName)) {
    const byId = await delegate.findUnique({ where: { id: idOrName }, ...omit })
    if (byId) return byId
  }
  if (kind === 'Connector' && !namespace) return delegate.findUnique({ where: { name: idOrName }, ...omit })
  return delegate.findUnique({ where: { namespace_name: { namespace: namespace ?? 'default', name: idOrName } }, ...omit })
}

export async function getRow(kind: Kind, idOrName: string, namespace?: string, db: Db = prisma): Promise<Row> {
  const row = await findRow(kind, idOrName, namespace, db)
  if (!row) throw notFound(`${kind} "${namespace ? `${namespace}/` : ''}${idOrName}"`)
  return row
}

/** Whether the portal's page for this resource has anything to show (else it is the 404 page). */
export async function resourceExists(kind: Kind, idOrName: string, namespace?: string): Promise<boolean> {
  // Text PostgreSQL cannot compare is no name of anything.
  if (/[\u0000\ud800-\udfff]/.test(idOrName + (namespace ?? ''))) return false
  return (await findRow(kind, idOrName, namespace)) !== null
}

export async function getResource(kind: Kind, idOrName: string, namespace?: string): Promise<ResourceView> {
  return toResourceView(kind, await getRow(kind, idOrName, namespace))
}

export type WriteAction = 'created' | 'updated' | 'unchanged'

export interface WriteOutcome {
  action: WriteAction
  id: string | null
  /** The stored spec before the write (discovery compares images and endpoints). */
  before: unknown
  /** The resource before and after, as the audit log keeps it (no secret values). */
  beforeDocument: AuditDocument | null
  afterDocument: AuditDocument | null
  /** Audit detail of the write: for a Secret, the key its values are sealed under. */
  detail: Record<string, unknown>
  /** Field by field, what the write changes (or would, in a dry run); empty unless `updated`. */
  changes: FieldChange[]
}

/**
 * Serializes writes of the same resources: concurrent applies of one document each read what the
 * other had not yet committed, so 20 at once gave several `updated` answers, audit events with one
 * before/after and a generation far past + 1 (and creates raced into unique violations). A lock per
 * kind/namespace/name, held to the end of the write's transaction, also covers rows that do not
 * exist yet (a row lock cannot); under READ COMMITTED the read after it sees the winner's commit,
 * so the others find their change made and answer `unchanged`. Taken in one sorted order, so two
 * applies of overlapping manifests cannot deadlock.
 */
export async function lockResourceNames(tx: Tx, docs: { kind: Kind; metadata: { namespace: string; name: string } }[]): Promise<void> {
  const keys = [...new Set(docs.map((d) => `toolroom.resource:${d.kind}/${d.metadata.namespace}/${d.metadata.name}`))].sort()
  // One round trip for a manifest of any size; unnest yields the keys in the array's (sorted) order.
  await sql`SELECT count(pg_advisory_xact_lock(hashtextextended(k, 0)))::int AS locked FROM unnest(${keys}::text[]) AS k`.execute(sqlIn(tx))
}

/**
 * Creates or updates the row for a document. `expect` narrows what is allowed: `absent` for a REST
 * create (409 if it exists), `present` for a REST replace (404 if it does not).
 */
export async function writeDocument(tx: Tx, doc: ValidDocument, { dryRun, expect }: { dryRun: boolean; expect?: 'absent' | 'present' }): Promise<WriteOutcome> {
  const adapter = KIND_ADAPTERS[doc.kind]
  const delegate = adapter.delegate(tx)
  const existing = await delegate.findUnique({
    where: { namespace_name: { namespace: doc.metadata.namespace, name: doc.metadata.name } },
  })
  const label = `${doc.kind} "${doc.metadata.namespace}/${doc.metadata.name}"`
  if (existing && expect === 'absent') throw new AppError('CONFLICT', `${label} already exists; use PUT to replace it or apply the manifest`)
  if (!existing && expect === 'present') throw notFound(label)
  const before = existing?.spec ?? null
  const beforeDocument = existing ? auditDocument(doc.kind, existing) : null
  const skipped = { before, beforeDocument, afterDocument: beforeDocument, detail: {}, changes: [] }
  if (existing && adapter.unchanged(existing, doc)) return { action: 'unchanged', id: existing.id, ...skipped }
  const changes = existing ? adapter.changes(existing, doc) : []
  if (dryRun) return { action: existing ? 'updated' : 'created', id: existing?.id ?? null, ...skipped, changes }

  const data: Record<string, unknown> & { apiVersion: string } = {
    apiVersion: doc.apiVersion,
    labels: doc.metadata.labels,
    annotations: doc.metadata.annotations,
    ...adapter.columns(doc),
  }
  const afterDocument = auditDocument(doc.kind, { ...doc.metadata, apiVersion: doc.apiVersion, spec: data.spec })
  const detail = typeof data.keyId === 'string' ? { keyId: data.keyId } : {}
  if (existing) {
    const row = await delegate.update({
      where: { id: existing.id },
      data: { ...data, generation: { increment: 1 }, updatedAt: new Date() },
      select: { id: true },
    })
    return { action: 'updated', id: row.id, before, beforeDocument, afterDocument, detail, changes }
  }
  const row = await delegate.create({
    data: { ...data, namespace: doc.metadata.namespace, name: doc.metadata.name },
    select: { id: true },
  })
  return { action: 'created', id: row.id, before, beforeDocument, afterDocument, detail, changes }
}

/** A stored resource an apply with prune would delete. */
export interface PrunableResource {
  kind: Kind
  id: string
  namespace: string
  name: string
  apiVersion: string
  /** The resource as the audit log keeps it (no secret values). */
  document: AuditDocument
}

/**
 * The stored resources, of every kind, that carry the labels `selector` asks for but are not among
 * `keep` (`Kind/namespace/name` of the manifest's documents; connectors by slug alone).
 */
export async function findPrunable(selector: LabelSelector, keep: ReadonlySet<string>, db: Db = prisma): Promise<PrunableResource[]> {
  const found = await Promise.all(
    KINDS.map(async (kind) => {
      const rows = await KIND_ADAPTERS[kind].delegate(db).findMany({
        where: { AND: labelSelectorWhere(selector) },
        orderBy: [{ namespace: 'asc' }, { name: 'asc' }],
        ...(OMIT_COLUMNS[kind] ? { omit: OMIT_COLUMNS[kind] } : {}),
      })
      return rows
        .filter((row) => !keep.has(resourceIdentity(kind, row.namespace, row.name)))
        .map((row) => ({ kind, id: row.id, namespace: row.namespace, name: row.name, apiVersion: row.apiVersion, document: auditDocument(kind, row) }))
    }),
  )
  return found.flat()
}

/** How apply tells resources apart: connectors by slug, which is unique across namespaces; the rest by namespace and name. */
export function resourceIdentity(kind: Kind, namespace: string, name: string): string {
  return kind === 'Connector' ? `Connector/${name}` : `${kind}/${namespace}/${name}`
}

/** Deletes pruned resources inside the apply's transaction; one that is already gone is left out of the answer. */
export async function deletePruned(tx: Tx, pruned: PrunableResource[]): Promise<PrunableResource[]> {
  const deleted: PrunableResource[] = []
  for (const resource of pruned) {
    const { count } = await KIND_ADAPTERS[resource.kind].delegate(tx).deleteMany({ where: { id: resource.id } })
    if (count > 0) deleted.push(resource)
  }
  return deleted
}

export async function deleteResource(kind: Kind, idOrName: string, namespace: string | undefined, audit: AuditContext): Promise<void> {
  const deleted = await prisma.$transaction(async (tx) => {
    const row = await getRow(kind, idOrName, namespace, tx)
    await KIND_ADAPTERS[kind].delegate(tx).delete({ where: { id: row.id } })
    await recordAuditEvent(
      {
        ...audit,
        action: 'resource.deleted',
        kind,
        namespace: row.namespace,
        resource: row.name,
        resourceId: row.id,
        before: auditDocument(kind, row),
        detail: { via: 'rest' },
      },
      tx,
    )
    return { kind, namespace: row.namespace, name: row.name, id: row.id }
  })
  noteRegistryChange(changeOfResources([deleted]))
  // Tools that used a deleted Secret or MCP server now fail: say so.
  await refreshToolStatusAfter([deleted])
}
