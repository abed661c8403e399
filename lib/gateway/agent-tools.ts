// What the gateway knows about a calling agent: its effective tool set split into what it may call
// and what it may not (with the reason), and the tools/list answer, kept per registry epoch.
import 'server-only'
import type { Tool as McpTool } from '@modelcontextprotocol/sdk/types.js'
import { prisma } from '@/lib/db'
import { getEffectiveTools } from '@/lib/effective-tools/get-effective-tools'
import type { EffectiveTool } from '@/lib/effective-tools/types'
import type { Row } from '@/lib/resources/kind-adapters'
import { epochMemo } from './epoch-memo'

export interface AgentTools {
  agent: {
    id: string
    name: string
    namespace: string
    unit: string | null
    spec: Record<string, unknown>
    labels: Record<string, string>
    /** The agent's unit and those above it, nearest first (what Policies read as `agent.units`). */
    units: string[]
  }
  enabled: Map<string, EffectiveTool>
  /** Disabled, denied and shadowed entries by name (the first listed), for the refusal's reason. */
  unavailable: Map<string, EffectiveTool>
  /** The tools/list answer: the enabled tools the gateway runs (image and function tools run inside the agent). */
  list: McpTool[]
}

export const agentTools = epochMemo(
  async (agentId: string): Promise<AgentTools | null> => {
    const row = (await prisma.agent.findUnique({ where: { id: agentId } })) as Row | null
    if (!row) return null
    const set = await getEffectiveTools('Agent', row)
    const enabled = new Map<string, EffectiveTool>()
    const unavailable = new Map<string, EffectiveTool>()
    for (const tool of set.tools) {
      if (tool.state === 'enabled') enabled.set(tool.name, tool)
      else if (!unavailable.has(tool.name)) unavailable.set(tool.name, tool)
    }
    for (const tool of set.excluded) if (!enabled.has(tool.name) && !unavailable.has(tool.name)) unavailable.set(tool.name, tool)
    return {
      agent: {
        id: row.id,
        name: row.name,
        namespace: row.namespace,
        unit: (row.unit as string | null) ?? null,
        spec: row.spec as Record<string, unknown>,
        labels: (row.labels ?? {}) as Record<string, string>,
        units: await unitChain(row.namespace, (row.unit as string | null) ?? null),
      },
      enabled,
      unavailable,
      list: [...enabled.values()].filter(runsInGateway).map(toMcpTool),
    }
  },
  10_000,
  'agent_tools',
)

/** The unit and its ancestors, nearest first; a cycle or a missing parent ends the chain. */
async function unitChain(namespace: string, unit: string | null): Promise<string[]> {
  if (!unit) return []
  const rows = await prisma.unit.findMany({ where: { namespace }, select: { name: true, parent: true } })
  const parents = new Map(rows.map((r) => [r.name, r.parent]))
  const chain: string[] = []
  for (let current: string | null | undefined = unit; current && !chain.includes(current); current = parents.get(current)) chain.push(current)
  return chain
}

/** Image and function tools run inside the agent (which reports their calls to ingest): the gateway lists only what it executes. */
export const runsInGateway = (tool: EffectiveTool) =>
  tool.tier === 'platform' || (tool.tier !== 'image' && !(tool.source.kind === 'Tool' && tool.type === 'function'))

function toMcpTool(tool: EffectiveTool): McpTool {
  return {
    name: tool.name,
    description: tool.description,
    inputSchema: tool.inputSchema as McpTool['inputSchema'],
    ...(tool.outputSchema ? { outputSchema: tool.outputSchema as McpTool['outputSchema'] } : {}),
    annotations: {
      readOnlyHint: tool.annotations.readOnly,
      destructiveHint: tool.annotations.destructive,
      idempotentHint: tool.annotations.idempotent,
      openWorldHint: tool.annotations.openWorld,
    },
    _meta: {
      'toolroom.dev/provenance': tool.provenance,
      'toolroom.dev/level': tool.sideEffects.level,
      'toolroom.dev/requiresApproval': tool.requiresApproval,
    },
  }
}
