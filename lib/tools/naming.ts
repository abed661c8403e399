// Tool ids are canonical (docs/design/resource-model.md#tool-ids): lowercase dotted snake_case with a leading namespace segment.
export const CANONICAL_TOOL_ID = /^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)+$/
export const PLATFORM_NAMESPACE = 'toolroom'
export const MAX_TOOL_ID_LENGTH = 128

export function isCanonicalToolId(id: string): boolean {
  return id.length <= MAX_TOOL_ID_LENGTH && CANONICAL_TOOL_ID.test(id)
}

/** The leading segment of a tool id (`zendesk` for `zendesk.create_ticket`). */
export function toolNamespaceOf(id: string): string {
  const dot = id.indexOf('.')
  return dot === -1 ? id : id.slice(0, dot)
}

/**
 * The reserved namespace a tool id falls under, if any: `toolroom` for the platform's own tools, or
 * the slug of a connector. Returns null when the id is free to use.
 */
export function reservedNamespaceOf(id: string, connectorSlugs: ReadonlySet<string>): string | null {
  const ns = toolNamespaceOf(id)
  if (ns === PLATFORM_NAMESPACE) return PLATFORM_NAMESPACE
  return connectorSlugs.has(ns) ? ns : null
}

/**
 * Turns an upstream MCP tool name (`create-issue`, `listRepos`, `Search Docs`) into a canonical
 * segment (`create_issue`, `list_repos`, `search_docs`); the upstream name is kept for forwarding.
 * Returns null when nothing canonical can be made of it.
 */
export function canonicalSegment(upstreamName: string): string | null {
  const segment = upstreamName
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .replace(/^[0-9_]+/, '')
  return segment.length > 0 ? segment : null
}

/** Canonical id of an upstream MCP tool under the server (or connector) that exposes it. */
export function canonicalMcpToolId(prefix: string, upstreamName: string): string | null {
  const segment = canonicalSegment(upstreamName)
  const prefixSegment = canonicalSegment(prefix)
  if (!segment || !prefixSegment) return null
  const id = `${prefixSegment}.${segment}`
  return isCanonicalToolId(id) ? id : null
}
