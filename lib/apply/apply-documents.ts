// Apply is all or nothing: every document is validated (alone and against the others and what is
// stored) and checked against what the caller may change before anything is written, and the
// writes share one transaction. Every problem of every document is found in one pass (a syntax error
// in one document does not keep the others from being checked) and, for a manifest's text, placed at
// its line and column, so one round of fixes is enough.
import 'server-only'
import type { AuditContext } from '@/lib/audit/audit-actor'
import { adminOnlyError, adminOnlyMessage, type AdminOnlyKind, isAdminOnlyKind, mayChangeKind } from '@/lib/auth/admin-only-kinds'
import { type ApplyImpact, impactOnAgents, type PlannedChange } from '@/lib/effective-tools/impact-on-agents'
import { formatLabelSelector, type LabelSelector, selectsByPresence } from '@/lib/labels/label-selector'
import type { Actor } from '@/lib/auth/access-rules'
import { type AuditEventInput, recordAuditEvents } from '@/lib/audit/record-audit-event'
import { likeLiteral } from '@/lib/text/like-literal'
import { prisma } from '@/lib/db'
import { AppError, type FieldError } from '@/lib/errors/app-error'
import { discoveriesForWrites, enqueueDiscoveries, type WrittenResource } from '@/lib/discovery/schedule-discovery'
import { changeOfResources } from '@/lib/registry/change-subjects'
import { noteRegistryChange } from '@/lib/registry/registry-changes'
import {
  deletePruned,
  findPrunable,
  lockResourceNames,
  type PrunableResource,
  resourceIdentity,
  writeDocument,
  type WriteAction,
} from '@/lib/resources/resource-store'
import type { FieldChange } from '@/lib/manifests/document-changes'
import { checkManifestRules, type IdentifiedDocument, type IndexedDocument, type StoredRuleContext } from '@/lib/manifests/check-manifest-rules'
import { resolveKind } from '@/lib/manifests/kinds'
import { keptSecretKeys } from '@/lib/manifests/specs/secret'
import { readManifest } from '@/lib/manifests/parse-manifest'
import { validateDocument } from '@/lib/manifests/validate-document'
import { type ApplyWarning, foreseeFailures } from '@/lib/manifests/foresee-failures'
import { refreshToolStatusAfter } from '@/lib/tools/refresh-tool-status'
import { type PolicyReach, policyReach } from './policy-reach'

export type ApplyAction = WriteAction | 'deleted'

export interface AppliedDocument {
  /** The document's index in the manifest; null for a resource prune deletes. */
  index: number | null
  kind: string
  apiVersion: string
  namespace: string
  name: string
  id: string | null
  action: ApplyAction
  /** Field by field, what is (or would be) changed: for `updated` only, else empty. */
  changes: FieldChange[]
}

export interface ApplyResult {
  dryRun: boolean
  results: AppliedDocument[]
  summary: Record<ApplyAction, number>
  /** Dry runs only: the agents whose effective tool sets would change. */
  impact?: ApplyImpact
  /** Dry runs only, for the Policies of the manifest: the agents and tools each would reach. */
  policyReach?: PolicyReach[]
  /** Dry runs only: what would be written but fail once it is (a host that does not resolve, a missing Secret or server). */
  warnings?: ApplyWarning[]
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
  /**
   * The set of resources the manifest owns: those carrying these labels that the manifest does not
   * hold are deleted, in the same transaction (a dry run lists them).
   */
  prune?: LabelSelector
}

export async function applyManifestText(text: string, options: ApplyOptions): Promise<ApplyResult> {
  const read = readManifest(text)
  const checked = await checkDocuments(read.documents, options, read.errors.length === 0)
  const errors = [...read.errors, ...checked.errors]
  // A dry run is refused too: it answers whether this caller's apply would go through.
  if (checked.refused.length > 0) throw forbidden(read.locate(checked.refused), read.locate(errors))
  if (errors.length > 0) throw validationFailed(read.locate(errors))
  return writeDocuments(checked, options)
}

export async function applyDocuments(rawDocuments: unknown[], options: ApplyOptions): Promise<ApplyResult> {
  const checked = await checkDocuments(
    rawDocuments.map((value, index) => ({ index, value })),
    options,
    true,
  )
  if (checked.refused.length > 0) throw forbidden(checked.refused, checked.errors)
  if (checked.errors.length > 0) throw validationFailed(checked.errors)
  return writeDocuments(checked, options)
}

interface CheckedDocuments {
  valid: IndexedDocument[]
  errors: FieldError[]
  refused: FieldError[]
  /** What prune would delete: read before the writes, and deleted under the same locks. */
  prunable: PrunableResource[]
}

/**
 * Every document alone, then the rules across them and what is stored, then what the caller may
 * change: every problem at once. `complete` is false when some documents did not parse: prune then
 * cannot tell what the manifest owns, so it is not looked up.
 */
async function checkDocuments(documents: Array<{ index: number; value: unknown }>, options: ApplyOptions, complete: boolean): Promise<CheckedDocuments> {
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
  const keptSecrets = valid.flatMap(({ document: d }) => (d.kind === 'Secret' && keptSecretKeys(d.spec) ? [d.metadata] : []))
  const withPolicies = valid.some(({ document: d }) => d.kind === 'Policy')
  errors.push(...checkManifestRules(valid, await loadStoredRuleContext(slugs, keptSecrets, withPolicies), identified))
  if (options.prune && !selectsByPresence(options.prune))
    errors.push({
      field: 'prune',
      rule: 'prune-selector',
      message:
        'a prune selector must require some label to be there (key=value, key in (…) or key): one of only !=, notin and !key requirements matches almost everything',
    })
  const prunable =
    options.prune && complete && errors.length === 0
      ? await findPrunable(options.prune, new Set(valid.map(({ document: d }) => resourceIdentity(d.kind, d.metadata.namespace, d.metadata.name))))
      : []
  for (const resource of prunable) {
    if (options.caller !== 'system' && isAdminOnlyKind(resource.kind) && !mayChangeKind(options.caller, resource.kind))
      refused.push({
        ...adminOnlyError(resource.kind, { name: resource.name }),
        field: 'prune',
        message: `${adminOnlyMessage(resource.kind)}: prune would delete ${resource.kind} "${resource.namespace}/${resource.name}"`,
      })
  }
  return { valid, errors, refused, prunable }
}

async function writeDocuments({ valid, prunable }: CheckedDocuments, options: ApplyOptions): Promise<ApplyResult> {
  const dryRun = options.dryRun ?? false
  const writes: WrittenResource[] = []
  const { results, planned } = await prisma.$transaction(
    async (tx) => {
      const out: AppliedDocument[] = []
      const planned: PlannedChange[] = []
      const events: AuditEventInput[] = []
      if (!dryRun) await lockResourceNames(tx, [...valid.map((v) => v.document), ...prunable.map((p) => ({ kind: p.kind, metadata: p }))])
      for (const { index, document } of valid) {
        const written = await writeDocument(tx, document, { dryRun, expect: options.expect })
        const { action, id, before } = written
        writes.push({ kind: document.kind, id, action, before, after: document.spec })
        if (action !== 'unchanged')
          planned.push({ kind: document.kind, namespace: document.metadata.namespace, name: document.metadata.name, spec: document.spec })
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
          changes: written.changes,
        })
      }
      const deleted = dryRun ? prunable : await deletePruned(tx, prunable)
      for (const resource of deleted) {
        planned.push({ kind: resource.kind, namespace: resource.namespace, name: resource.name, spec: null })
        out.push({
          index: null,
          kind: resource.kind,
          apiVersion: resource.apiVersion,
          namespace: resource.namespace,
          name: resource.name,
          id: resource.id,
          action: 'deleted',
          changes: [],
        })
        if (!dryRun)
          events.push({
            ...options.audit,
            action: 'resource.deleted',
            kind: resource.kind,
            namespace: resource.namespace,
            resource: resource.name,
            resourceId: resource.id,
            before: resource.document,
            detail: { via: 'apply', prune: formatLabelSelector(options.prune!) },
          })
      }
      await recordAuditEvents(events, tx)
      return { results: out, planned }
    },
    { timeout: 120_000, maxWait: 10_000 },
  )
  const summary = { created: 0, updated: 0, unchanged: 0, deleted: 0 }
  for (const r of results) summary[r.action]++
  if (!dryRun && summary.unchanged < results.length) {
    noteRegistryChange(changeOfResources(results.filter((r) => r.action !== 'unchanged')))
    await enqueueDiscoveries(discoveriesForWrites(writes))
    await refreshToolStatusAfter(results.filter((r) => r.action !== 'unchanged'))
  }
  // REST creates and replaces answer with the resource, not an apply result: no impact to compute.
  const impact = dryRun && options.expect === undefined ? await impactOnAgents(planned) : undefined
  const policies = valid.flatMap(({ document: d }) => (d.kind === 'Policy' ? [{ namespace: d.metadata.namespace, name: d.metadata.name, spec: d.spec }] : []))
  const reach = dryRun && options.expect === undefined && policies.length > 0 ? await policyReach(policies) : undefined
  const changing = new Set(results.filter((r) => r.action === 'created' || r.action === 'updated').map((r) => r.index))
  const warnings = dryRun && options.expect === undefined ? await foreseeFailures(valid.filter((v) => changing.has(v.index))) : undefined
  return { dryRun, results, summary, ...(impact ? { impact } : {}), ...(reach ? { policyReach: reach } : {}), ...(warnings ? { warnings } : {}) }
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

async function loadStoredRuleContext(
  connectorSlugs: string[],
  keptSecrets: { namespace: string; name: string }[],
  withPolicies: boolean,
): Promise<StoredRuleContext> {
  const [connectors, units, toolsUnder, secrets, tools] = await Promise.all([
    prisma.connector.findMany({ select: { name: true, namespace: true, spec: true } }),
    prisma.unit.findMany({ select: { namespace: true, name: true, parent: true } }),
    connectorSlugs.length
      ? prisma.tool.findMany({
          where: { OR: connectorSlugs.map((slug) => ({ name: { startsWith: `${likeLiteral(slug)}.` } })) },
          select: { namespace: true, name: true },
        })
      : [],
    keptSecrets.length
      ? prisma.secret.findMany({
          where: { OR: keptSecrets.map(({ namespace, name }) => ({ namespace, name })) },
          select: { namespace: true, name: true, spec: true },
        })
      : [],
    withPolicies ? prisma.tool.findMany({ select: { name: true, spec: true } }) : [],
  ])
  const toolsUnderSlug = new Map<string, { namespace: string; name: string }[]>()
  for (const tool of toolsUnder) {
    const slug = tool.name.slice(0, tool.name.indexOf('.'))
    toolsUnderSlug.set(slug, [...(toolsUnderSlug.get(slug) ?? []), tool])
  }
  return {
    toolsUnderSlug,
    connectors: new Map(connectors.map((c) => [c.name, { namespace: c.namespace, tools: (c.spec as { tools?: string[] }).tools ?? [] }])),
    unitParents: new Map(units.map((u) => [`${u.namespace}/${u.name}`, u.parent])),
    secretKeys: new Map(secrets.map((s) => [`${s.namespace}/${s.name}`, (s.spec as { keys: string[] }).keys])),
    toolInputSchemas: new Map(tools.map((t) => [t.name, (t.spec as { inputSchema?: unknown }).inputSchema])),
  }
}
