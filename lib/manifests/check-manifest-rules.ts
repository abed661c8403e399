// Rules that span documents or need what is already stored: duplicates, reserved tool namespaces,
// connector slugs, unit cycles. Pure: the caller loads the stored context. Documents whose spec is
// invalid but whose kind and metadata are not (`identified`) still take part in the rules that need
// only their names, so those problems are not left for the next round.
import type { FieldError } from '@/lib/errors/app-error'
import { policyArgumentProblems } from '@/lib/policy/check-policy-arguments'
import { PLATFORM_NAMESPACE, toolNamespaceOf } from '@/lib/tools/naming'
import { keptSecretKeys } from './specs/secret'
import type { DocumentIdentity, ValidDocument } from './validate-document'

export interface StoredRuleContext {
  /** Stored connectors by slug. */
  connectors: Map<string, { namespace: string; tools: string[] }>
  /** Stored units: `namespace/name` → parent name (null at a root). */
  unitParents: Map<string, string | null>
  /** Stored Tools whose id falls under the slug of a connector in the manifest. */
  toolsUnderSlug: Map<string, { namespace: string; name: string }[]>
  /** Key names of the stored Secrets that documents of the manifest keep (`spec.keys` alone), by `namespace/name`. */
  secretKeys?: Map<string, string[]>
  /** Input schemas of the stored Tools by id (loaded when the manifest holds a Policy). */
  toolInputSchemas?: Map<string, unknown>
}

export interface IndexedDocument {
  index: number
  document: ValidDocument
}

export interface IdentifiedDocument extends DocumentIdentity {
  index: number
}

export function checkManifestRules(docs: IndexedDocument[], stored: StoredRuleContext, identified: IdentifiedDocument[] = []): FieldError[] {
  const errors: FieldError[] = []
  const fail = ({ index, document }: { index: number; document: DocumentIdentity }, field: string, rule: string, message: string) =>
    errors.push({ document: index, kind: document.kind, name: document.metadata.name, field, rule, message })
  // Every document with a valid kind and name, in manifest order.
  const named = [...docs, ...identified.map(({ index, kind, metadata }) => ({ index, document: { kind, metadata } }))].sort((a, b) => a.index - b.index)

  // Duplicates within the manifest. Connector slugs are global, so they collide across namespaces.
  const seen = new Map<string, number>()
  for (const item of named) {
    const { kind, metadata } = item.document
    const key = kind === 'Connector' ? `Connector/${metadata.name}` : `${kind}/${metadata.namespace}/${metadata.name}`
    const first = seen.get(key)
    if (first !== undefined)
      fail(item, 'metadata.name', 'duplicate', `${kind} "${metadata.name}" appears more than once in this manifest (first in document ${first})`)
    else seen.set(key, item.index)
  }

  // A connector's slug needs only its name.
  for (const item of named) {
    const d = item.document
    if (d.kind !== 'Connector') continue
    const slug = d.metadata.name
    const existing = stored.connectors.get(slug)
    if (slug === PLATFORM_NAMESPACE) fail(item, 'metadata.name', 'reserved-namespace', `"${PLATFORM_NAMESPACE}" is reserved for Toolroom's platform tools`)
    else if (existing && existing.namespace !== d.metadata.namespace)
      fail(
        item,
        'metadata.name',
        'duplicate',
        `connector slug "${slug}" is already taken in namespace "${existing.namespace}"; slugs are unique across namespaces`,
      )
  }

  // The connectors as they will be after this apply.
  const connectors = new Map(stored.connectors)
  for (const item of docs) {
    const d = item.document
    if (d.kind !== 'Connector') continue
    const slug = d.metadata.name
    connectors.set(slug, { namespace: d.metadata.namespace, tools: d.spec.tools ?? [] })
    ;(d.spec.tools ?? []).forEach((tool, i) => {
      if (toolNamespaceOf(tool) !== slug)
        fail(item, `spec.tools[${i}]`, 'reserved-namespace', `connector "${slug}" may only list tools under "${slug}.*", not "${tool}"`)
    })
  }

  for (const item of named) {
    const d = item.document
    if (d.kind !== 'Tool') continue
    const ns = toolNamespaceOf(d.metadata.name)
    if (ns === PLATFORM_NAMESPACE) {
      fail(item, 'metadata.name', 'reserved-namespace', `the "${PLATFORM_NAMESPACE}.*" namespace is reserved for Toolroom's platform tools`)
      continue
    }
    const owner = connectors.get(ns)
    if (owner && (owner.namespace !== d.metadata.namespace || !owner.tools.includes(d.metadata.name)))
      fail(
        item,
        'metadata.name',
        'reserved-namespace',
        `"${ns}.*" is reserved for connector "${ns}" (namespace "${owner.namespace}"): define "${d.metadata.name}" there and list it in the connector's spec.tools, or choose another tool namespace`,
      )
  }

  // A new or changed connector may not claim a namespace that stored Tools already use unless it owns them.
  const inManifest = new Set(named.filter(({ document: d }) => d.kind === 'Tool').map(({ document: d }) => `${d.metadata.namespace}/${d.metadata.name}`))
  for (const item of docs) {
    const d = item.document
    if (d.kind !== 'Connector') continue
    const owner = connectors.get(d.metadata.name)!
    const strays = (stored.toolsUnderSlug.get(d.metadata.name) ?? []).filter(
      (t) => !inManifest.has(`${t.namespace}/${t.name}`) && (t.namespace !== owner.namespace || !owner.tools.includes(t.name)),
    )
    if (strays.length > 0)
      fail(
        item,
        'metadata.name',
        'reserved-namespace',
        `Tools already registered under "${d.metadata.name}.*" would not belong to this connector: ${strays
          .slice(0, 10)
          .map((t) => `${t.namespace}/${t.name}`)
          .join(', ')}${strays.length > 10 ? ', …' : ''}; list them in spec.tools (same namespace) or rename them`,
      )
  }

  // A Secret given as its key names (what GET shows) keeps the values stored under exactly those keys.
  for (const item of docs) {
    const d = item.document
    if (d.kind !== 'Secret') continue
    const kept = keptSecretKeys(d.spec)
    if (!kept) continue
    const storedKeys = stored.secretKeys?.get(`${d.metadata.namespace}/${d.metadata.name}`)?.slice().sort()
    if (!storedKeys)
      fail(
        item,
        'spec.keys',
        'secret-values',
        `Secret "${d.metadata.namespace}/${d.metadata.name}" is not stored, so there are no values to keep: give them in spec.stringData or spec.data`,
      )
    else if (storedKeys.join(',') !== kept.join(','))
      fail(
        item,
        'spec.keys',
        'secret-values',
        `spec.keys alone keeps the stored values, so it must name the stored keys (${storedKeys.join(', ')}); to add, remove or change values, give them in spec.stringData or spec.data`,
      )
  }

  // A Policy's conditions read arguments the tools it selects have, as this apply leaves them.
  const policies = docs.filter(({ document: d }) => d.kind === 'Policy')
  if (policies.length > 0) {
    const schemas = new Map(stored.toolInputSchemas)
    for (const { document: d } of docs) if (d.kind === 'Tool') schemas.set(d.metadata.name, d.spec.inputSchema)
    for (const item of policies) {
      const d = item.document
      if (d.kind !== 'Policy') continue
      for (const problem of policyArgumentProblems(d.spec, schemas)) fail(item, problem.field, problem.rule, problem.message)
    }
  }

  // Unit trees must stay trees.
  const parents = new Map(stored.unitParents)
  for (const { document: d } of docs) if (d.kind === 'Unit') parents.set(`${d.metadata.namespace}/${d.metadata.name}`, d.spec.parent ?? null)
  for (const item of docs) {
    const d = item.document
    if (d.kind !== 'Unit' || !d.spec.parent) continue
    const ns = d.metadata.namespace
    const path = [d.metadata.name]
    let current: string | null | undefined = d.spec.parent
    while (current) {
      if (path.includes(current)) {
        fail(item, 'spec.parent', 'cycle', `unit parents form a cycle: ${[...path, current].join(' → ')}`)
        break
      }
      path.push(current)
      current = parents.get(`${ns}/${current}`)
    }
  }
  return errors
}
