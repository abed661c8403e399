// Portal URLs of resources. Pages accept a uuid or a name with ?namespace=, like the API does, so
// a reference written in a spec ("name" or "namespace/name") links without a lookup.
import { parseRef } from '@/lib/refs/resource-ref'
import { parseToolStatKey } from '@/lib/stats/tool-stat-key'

export type PortalKind = 'Tool' | 'LanguageTool' | 'Connector' | 'Unit' | 'Agent' | 'Secret' | 'IdentityProvider'

const BASE: Record<PortalKind, string> = {
  Tool: '/tools',
  LanguageTool: '/language-tools',
  Connector: '/connectors',
  Unit: '/units',
  Agent: '/agents',
  Secret: '/secrets',
  IdentityProvider: '/identity-providers',
}

export function hasPage(kind: string): kind is PortalKind {
  return kind in BASE
}

/** A kind's list page, narrowed to one namespace when given. */
export function listHref(kind: PortalKind, namespace?: string | null): string {
  return namespace ? `${BASE[kind]}?namespace=${encodeURIComponent(namespace)}` : BASE[kind]
}

export function resourceHref(kind: PortalKind, idOrName: string, namespace?: string | null): string {
  return `${BASE[kind]}/${encodeURIComponent(idOrName)}${namespace ? `?namespace=${encodeURIComponent(namespace)}` : ''}`
}

/**
 * The page of the tool a call went to, from its resolved-tool key (lib/stats/tool-stat-key.ts): a
 * Tool's own page, or the connector, server or agent that offers it. Null for Toolroom's platform
 * tools and tools the caller's set did not have, which have no page.
 */
export function resolvedToolHref(toolKey: string | null | undefined): string | null {
  const parsed = toolKey ? parseToolStatKey(toolKey) : null
  const source = parsed?.source
  if (!source || source.kind === 'Platform' || !hasPage(source.kind)) return null
  return resourceHref(source.kind, source.name, source.namespace)
}

/** Link for a spec reference: "name" resolves in the referring resource's namespace. */
export function refHref(kind: PortalKind, ref: string, defaultNamespace: string): string {
  const { namespace, name } = parseRef(ref, defaultNamespace)
  return resourceHref(kind, name, namespace)
}
