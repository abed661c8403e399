// The kinds `get` and `delete` take, by any of their names, and the columns of their tables.
import { age } from './output.mjs'
import { UsageError } from './errors.mjs'
import type { components } from './generated/openapi.mjs'

export interface Resource {
  id: string
  apiVersion: string
  kind: string
  metadata: components['schemas']['ResourceMetadata']
  spec: Record<string, unknown>
  status?: Record<string, unknown>
}

export interface KindInfo {
  kind: string
  plural: 'tools' | 'languagetools' | 'connectors' | 'units' | 'agents' | 'secrets' | 'sideeffectpolicies'
  names: string[]
  columns: { header: string; value: (r: Resource) => string | number | null | undefined }[]
}

const spec = (r: Resource, key: string) => r.spec[key] as string | undefined
const status = (r: Resource, key: string) => r.status?.[key] as string | number | null | undefined

export const KINDS: KindInfo[] = [
  {
    kind: 'Tool',
    plural: 'tools',
    names: ['tool', 'tools'],
    columns: [
      { header: 'type', value: (r) => spec(r, 'type') },
      { header: 'level', value: (r) => (r.spec.sideEffects as { level?: string } | undefined)?.level },
      { header: 'calls 7d', value: (r) => status(r, 'totalCalls7d') },
    ],
  },
  {
    kind: 'LanguageTool',
    plural: 'languagetools',
    names: ['languagetool', 'languagetools', 'mcpserver', 'mcpservers'],
    columns: [
      { header: 'phase', value: (r) => status(r, 'phase') },
      { header: 'endpoint', value: (r) => status(r, 'endpoint') },
    ],
  },
  {
    kind: 'Connector',
    plural: 'connectors',
    names: ['connector', 'connectors'],
    columns: [
      { header: 'tools', value: (r) => (r.spec.tools as string[] | undefined)?.length ?? 0 },
      { header: 'server', value: (r) => spec(r, 'languageTool') },
    ],
  },
  { kind: 'Unit', plural: 'units', names: ['unit', 'units'], columns: [{ header: 'parent', value: (r) => spec(r, 'parent') }] },
  { kind: 'Agent', plural: 'agents', names: ['agent', 'agents'], columns: [{ header: 'unit', value: (r) => spec(r, 'unit') }] },
  {
    kind: 'Secret',
    plural: 'secrets',
    names: ['secret', 'secrets'],
    columns: [
      { header: 'type', value: (r) => spec(r, 'type') },
      { header: 'keys', value: (r) => (r.spec.keys as string[]).join(',') },
    ],
  },
  {
    kind: 'SideEffectPolicy',
    plural: 'sideeffectpolicies',
    names: ['sideeffectpolicy', 'sideeffectpolicies', 'policy', 'policies'],
    columns: [{ header: 'approval', value: (r) => (r.spec.requiresApproval ? 'required' : 'no') }],
  },
]

export function kindNamed(name: string): KindInfo {
  const found = KINDS.find((k) => k.names.includes(name.toLowerCase()) || k.kind === name)
  if (!found) throw new UsageError(`unknown kind "${name}"; one of: ${KINDS.map((k) => k.names[0]).join(', ')}`)
  return found
}

export function resourceRows(kind: KindInfo, resources: Resource[]) {
  return {
    headers: ['namespace', 'name', ...kind.columns.map((c) => c.header), 'generation', 'age'],
    rows: resources.map((r) => [
      r.metadata.namespace,
      r.metadata.name,
      ...kind.columns.map((c) => c.value(r)),
      r.metadata.generation,
      age(r.metadata.createdAt),
    ]),
  }
}

/** `name`, `namespace/name`, or an id, with the namespace a flag or context gives. */
export function nameAndNamespace(ref: string, namespace?: string): { id: string; namespace?: string } {
  const slash = ref.indexOf('/')
  if (slash > 0 && !namespace) return { id: ref.slice(slash + 1), namespace: ref.slice(0, slash) }
  return { id: ref, namespace }
}

/** The params of a route that takes one resource as `{id}`: an id, or a name with `?namespace=`. */
export function resourceParams(ref: { id: string; namespace?: string }) {
  return { path: { id: ref.id }, query: ref.namespace ? { namespace: ref.namespace } : {} }
}
