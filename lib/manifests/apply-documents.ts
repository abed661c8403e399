// Apply is all or nothing: every document is validated (alone and against the others and what is
// stored) and checked against what the caller may change before anything is written, and the
// writes share one transaction. Every problem of every document is found in one pass (a syntax error
// in one document does not keep the others from being checked) and, for a manifest's text, placed at
// its line and column, so one round of fixes is enough.
import type { AuditContext } from '@/lib/audit/audit-actor'
import { adminOnlyError, adminOnlyMessage, type AdminOnlyKind, isAdminOnlyKind, mayChangeKind } from '@/lib/auth/admin-only-kinds'
import type { Actor } from '@/lib/auth/access-rules'
import { type AuditEventInput, recordAuditEvents } from '@/lib/audit/record-audit-event'
import { prisma } from '@/lib/db'
import { AppError, type FieldError } from '@/lib/errors/app-error'
import { discoveriesForWrites, enqueueDiscoveries, type WrittenResource } from '@/lib/discovery/schedule-discovery'
import { noteRegistryChange } from '@/lib/registry/registry-changes'
import { lockResourceNames, writeDocument, type WriteAction } from '@/lib/resources/resource-store'
import { checkManifestRules, type IdentifiedDocument, type IndexedDocument, type StoredRuleContext } from './check-manifest-rules'
import { resolveKind } from './kinds'
import { readManifest } from './parse-manifest'
import { validateDocument } from './validate-document'

export interface AppliedDocument {
  index: number
  kind: string
  apiVersion: string
  namespace: string
  name: string
  id: string | null
  action: WriteAction
}

export interface ApplyResult {
  dryRun: boolean
  results: AppliedDocument[]
  summary: Record<WriteAction, number>
}

export interface ApplyOptions {
  /** Who asked: every written document is recorded in the audit log in the same transaction. */
  audit: AuditContext
  /**
   * Whose permissions the documents are checked against (admin-only kinds); `system` for Toolroom's
   * own writes (the demo seed). Required, so no caller of apply can forget to pass it.
   */
  caller: Actor | 'system'
  dryRun?: boolean
  /** REST create/replace semantics for a single document. */
  expect?: 'absent' | 'present'
}

export async function applyManifestText(text: string, options: ApplyOptions): Promise<ApplyResult> {
  const read = readManifest(text)
  const checked = await checkDocuments(read.documents, options)
  const errors = [...read.errors, ...checked.errors]
  // A dry run is refused too: it answers whether this caller's apply would go through.
  if (checked.refused.length > 0) throw forbidden(read.locate(checked.refused), read.locate(errors))
  if (errors.length > 0) throw validationFailed(read.locate(errors))
  return writeDocuments(checked.valid, options)
}

export async function applyDocuments(rawDocuments: unknown[], options: ApplyOptions): Promise<ApplyResult> {
  const checked = await checkDocuments(rawDocuments.map((value, index) => ({ index, value })), options)
  if (checked.refused.length > 0) throw forbidden(checked.refused, checked.errors)
  if (checked.errors.length > 0) throw validationFailed(checked.errors)
  return writeDocuments(checked.valid, options)
}

/** Every document alone, then the rules across them and what is stored, then what the caller may change: every problem at once. */
async function checkDocuments(documents: Array<{ index: number; value: unknown }>, options: ApplyOptions) {
  const errors: FieldError[] = []
  const refused: FieldError[] = []
  const valid: IndexedDocument[] = []
  const identified: IdentifiedDocument[] = []
  // A single REST document names no document index; a manifest's documents always do.
  const numbered = documents.length > 1 || options.expect === undefined
  for (const { index, value } of documents) {
    const at = numbered ? index : undefined
    const { document, identity, errors: docErrors } = validateDocument(value, at)
    if (document) valid.push({ index, document })
    else if (identity) identified.push({ index, ...identity })
    errors.push(...docErrors)
    const refusal = refusalOf(value, at, options.caller)
    if (refusal) refused.push(refusal)
  }
  const slugs = valid.filter(({ document: d }) => d.kind === 'Connector').map(({ document: d }) => d.metadata.name)
  errors.push(...checkManifestRules(valid, await loadStoredRuleContext(slugs), identified))
  return { valid, errors, refused }
}

async function writeDocuments(valid: IndexedDocument[], options: ApplyOptions): Promise<ApplyResult> {
  const dryRun = options.dryRun ?? false
  const writes: WrittenResource[] = []
  const results = await prisma.$transaction(
    async (tx) => {
      const out: AppliedDocument[] = []
      const events: AuditEventInput[] = []
      if (!dryRun) await lockResourceNames(tx, valid.map((v) => v.document))
      for (const { index, document } of valid) {
        const written = await writeDocument(tx, document, { dryRun, expect: options.expect })
        const { action, id, before } = written
        writes.push({ kind: document.kind, id, action, before, after: document.spec })
        // Dry runs and unchanged documents change nothing, so there is nothing to record.
        if (!dryRun && action !== 'unchanged')
          events.push({
            ...options.audit,
            action: `resource.${action}`,
            kind: document.kind,
            namespace: document.metadata.namespace,
            resource: document.metadata.name,
            resourceId: id ?? undefined,
            before: written.beforeDocument,
            after: written.afterDocument,
            detail: { via: options.expect ? 'rest' : 'apply', ...written.detail },
          })
        out.push({
          index,
          kind: document.kind,
          apiVersion: document.apiVersion,
          namespace: document.metadata.namespace,
          name: document.metadata.name,
          id,
          action,
        })
      }
      await recordAuditEvents(events, tx)
      return out
    },
    { timeout: 120_000, maxWait: 10_000 },
  )
  const summary = { created: 0, updated: 0, unchanged: 0 }
  for (const r of results) summary[r.action]++
  if (!dryRun && summary.unchanged < results.length) {
    noteRegistryChange()
    await enqueueDiscoveries(discoveriesForWrites(writes))
  }
  return { dryRun, results, summary }
}

/** The refusal of one document, when its kind is one the caller may not change (whether or not it is valid). */
function refusalOf(raw: unknown, document: number | undefined, caller: Actor | 'system'): FieldError | null {
  if (caller === 'system') return null
  const doc = (typeof raw === 'object' && raw !== null ? raw : {}) as { kind?: unknown; metadata?: { name?: unknown } }
  const kind = typeof doc.kind === 'string' ? resolveKind(doc.kind) : null
  if (!isAdminOnlyKind(kind) || mayChangeKind(caller, kind)) return null
  return adminOnlyError(kind, { document, name: typeof doc.metadata?.name === 'string' ? doc.metadata.name : undefined })
}

/**
 * Apply stays all or nothing: documents the caller may not change refuse the whole manifest (403),
 * and the answer lists them first, then what else is wrong, so one round of fixes is enough.
 */
function forbidden(refused: FieldError[], otherErrors: FieldError[]): AppError {
  const kinds = [...new Set(refused.map((e) => e.kind as AdminOnlyKind))].sort()
  const rule = kinds.length === 1 ? adminOnlyMessage(kinds[0]) : `${kinds.join(' and ')} resources can be changed by admins only`
  const documents = refused.map((e) => e.document).filter((d) => d !== undefined)
  const which = documents.length ? ` (document${documents.length === 1 ? '' : 's'} ${documents.join(', ')})` : ''
  const more = otherErrors.length ? `; ${otherErrors.length} validation error${otherErrors.length === 1 ? '' : 's'} as well` : ''
  return new AppError('FORBIDDEN', `${rule}${which}${more}; nothing was written`, [...refused, ...otherErrors])
}

function validationFailed(errors: FieldError[]): AppError {
  const documents = new Set(errors.map((e) => e.document).filter((d) => d !== undefined)).size
  const where = documents > 1 ? ` in ${documents} documents` : ''
  return new AppError('VALIDATION_FAILED', `${errors.length} validation error${errors.length === 1 ? '' : 's'}${where}; nothing was written`, errors)
}

async function loadStoredRuleContext(connectorSlugs: string[]): Promise<StoredRuleContext> {
  const [connectors, units, toolsUnder] = await Promise.all([
    prisma.connector.findMany({ select: { name: true, namespace: true, spec: true } }),
    prisma.unit.findMany({ select: { namespace: true, name: true, parent: true } }),
    connectorSlugs.length
      ? prisma.tool.findMany({ where: { OR: connectorSlugs.map((slug) => ({ name: { startsWith: `${slug}.` } })) }, select: { namespace: true, name: true } })
      : [],
  ])
  const toolsUnderSlug = new Map<string, { namespace: string; name: string }[]>()
  for (const tool of toolsUnder) {
    const slug = tool.name.slice(0, tool.name.indexOf('.'))
    toolsUnderSlug.set(slug, [...(toolsUnderSlug.get(slug) ?? []), tool])
  }
  return {
    toolsUnderSlug,
    connectors: new Map(connectors.map((c) => [c.name, { namespace: c.namespace, tools: ((c.spec as { tools?: string[] }).tools ?? []) }])),
    unitParents: new Map(units.map((u) => [`${u.namespace}/${u.name}`, u.parent])),
  }
}
