// One tool-search index per agent per registry epoch (docs/design/effective-tools.md#tool-search):
// built on an agent's first search from its own AgentTools, the epoch's object, so a registry change
// (a new AgentTools) builds a new one and no index ever holds a tool outside the agent's set.
import 'server-only'
import type { EffectiveTool } from '@/lib/effective-tools/types'
import { buildToolIndex, type SearchableTool, type ToolIndex } from '@/lib/tool-search/rank-tools'
import { type AgentTools, runsInGateway } from './agent-tools'

/** Indexes kept, least recently used out first: about 0.8 MiB each for 322 tools (BENCHMARKS.md, "Tool search"). */
export const MAX_INDEXES = 200

const indexes = new Map<string, { tools: AgentTools; index: ToolIndex }>()

export function toolSearchIndex(tools: AgentTools): ToolIndex {
  const key = tools.agent.id
  const kept = indexes.get(key)
  indexes.delete(key)
  if (kept && kept.tools === tools) {
    indexes.set(key, kept)
    return kept.index
  }
  const index = buildToolIndex([...tools.enabled.values()].filter(runsInGateway).map(searchable))
  indexes.set(key, { tools, index })
  if (indexes.size > MAX_INDEXES) indexes.delete(indexes.keys().next().value!)
  return index
}

export function searchable(tool: EffectiveTool): SearchableTool {
  const a = tool.annotations
  return {
    name: tool.name,
    description: tool.description,
    inputSchema: tool.inputSchema,
    server: tool.tier === 'mcp' || tool.tier === 'connector' ? tool.provenance.slice(tool.provenance.indexOf(':') + 1) : tool.toolNamespace,
    traits: [
      tool.sideEffects.level,
      ...(a.readOnly ? ['read only'] : ['write']),
      ...(a.destructive ? ['destructive'] : []),
      ...(a.idempotent ? ['idempotent'] : []),
    ],
  }
}
