// Which tool a call went to, as the statistics tell tools apart. A tool id alone is not enough: two
// Tools named `zendesk.create_ticket` in different namespaces, or `mem0.search` offered by two
// LanguageTools called mem0 in two namespaces, are different tools with figures of their own. The
// key names the resolved tool by its source (the effective-set entry's `source`) and its id:
//   Tool/<namespace>/<name>                     a Tool resource (granted, or listed by a connector)
//   Connector/<namespace>/<slug>/<toolId>       a tool of a connector's MCP server
//   LanguageTool/<namespace>/<server>/<toolId>  a tool discovered on an agent's MCP server
//   Agent/<namespace>/<agent>/<toolId>          an image tool (runs inside that agent)
//   Platform/<toolId>                           Toolroom's own toolroom.* tools
// Calls of a tool the caller's effective set does not have carry no source: `Unresolved/<toolId>`.
// The tool id is always the last segment after the source's fixed parts.
import type { SourceRef } from '@/lib/effective-tools/types'

export const MAX_TOOL_STAT_KEY_LENGTH = 600

export function toolStatKey(source: SourceRef, toolId: string): string {
  if (source.kind === 'Platform') return `Platform/${toolId}`
  // A Tool resource's name is its canonical id.
  if (source.kind === 'Tool') return `Tool/${source.namespace}/${source.name}`
  return `${source.kind}/${source.namespace}/${source.name}/${toolId}`
}

/** The key of the Tool resource `namespace/name` (what Tool.status.totalCalls7d reads). */
export const toolResourceStatKey = (namespace: string, name: string): string => toolStatKey({ kind: 'Tool', namespace, name }, name)

const FIXED_PARTS: Record<string, number> = { Platform: 0, Unresolved: 0, Tool: 1, Connector: 2, LanguageTool: 2, Agent: 2, Unit: 2 }

/** Splits a key back into its source and tool id; null for anything that is not a key. */
export function parseToolStatKey(key: string): { source: SourceRef | null; toolId: string } | null {
  const kind = key.slice(0, key.indexOf('/'))
  const fixed = FIXED_PARTS[kind]
  if (fixed === undefined) return null
  const parts = key.slice(kind.length + 1).split('/')
  if (parts.length < fixed + 1 || parts.some((p) => p === '')) return null
  const toolId = parts.slice(fixed).join('/')
  if (kind === 'Unresolved') return { source: null, toolId }
  if (kind === 'Platform') return { source: { kind: 'Platform', name: toolId, namespace: null }, toolId }
  if (kind === 'Tool') return parts.length === 2 ? { source: { kind: 'Tool', namespace: parts[0], name: parts[1] }, toolId: parts[1] } : null
  return { source: { kind: kind as SourceRef['kind'], namespace: parts[0], name: parts[1] }, toolId }
}
