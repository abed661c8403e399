// Stored rows and cached surfaces turned into CatalogTools, the resolver's common currency.
import type { ToolSpec } from '@/lib/manifests/specs/tool'
import { canonicalMcpToolId } from '@/lib/tools/naming'
import { phaseProblems } from '@/lib/tools/tool-conditions'
import { annotationsForLevel, annotationsFromMcpHints, levelFromAnnotations, type McpToolAnnotations, UNDECLARED_LEVEL } from './derive-side-effects'
import type { CatalogTool, ToolHealth } from './types'

export interface ToolRowLike {
  name: string
  namespace: string
  spec: unknown
  totalCalls7d: number
  failureRate7d: number | null
  phase?: string
  conditions?: { type: string; status: string; reason: string; message: string }[]
}

function healthOfToolRow(row: ToolRowLike): ToolHealth | undefined {
  if (row.phase === undefined) return undefined
  const problems = phaseProblems(row.conditions ?? []).map(({ type, reason, message }) => ({ type, reason, message }))
  return { phase: row.phase, problems }
}

/** A server tool can be called while its server is Ready; otherwise the server's state is the problem. */
function healthOfServer(server: { name: string; namespace: string; phase?: string; lastError?: string | null }): ToolHealth | undefined {
  if (server.phase === undefined) return undefined
  if (server.phase === 'Ready') return { phase: 'Ready', problems: [] }
  const failed = server.phase === 'Failed'
  return {
    phase: failed ? 'Failed' : 'Degraded',
    problems: [
      {
        type: 'ServerReady',
        reason: failed ? 'ServerFailed' : 'ServerPending',
        message: failed
          ? `the LanguageTool "${server.namespace}/${server.name}" failed its last discovery${server.lastError ? `: ${server.lastError.slice(0, 300)}` : ''}`
          : `the LanguageTool "${server.namespace}/${server.name}" has not been discovered yet`,
      },
    ],
  }
}

export function catalogToolFromRow(row: ToolRowLike): CatalogTool {
  const spec = row.spec as ToolSpec
  const level = spec.sideEffects?.level
  return {
    name: row.name,
    namespace: row.namespace,
    description: spec.description,
    inputSchema: spec.inputSchema,
    ...(spec.outputSchema ? { outputSchema: spec.outputSchema } : {}),
    type: spec.type,
    level: level ?? UNDECLARED_LEVEL,
    levelSource: level ? 'declared' : 'default',
    annotations: annotationsForLevel(level, spec.sideEffects?.idempotent),
    ...(spec.sideEffects?.requiresApproval !== undefined ? { requiresApproval: spec.sideEffects.requiresApproval } : {}),
    ...(spec.safety?.rateLimit ? { rateLimit: spec.safety.rateLimit } : {}),
    allowedAgents: spec.safety?.allowedAgents ?? [],
    deniedNamespaces: spec.safety?.deniedNamespaces ?? [],
    ...(spec.mcpServerRef?.tool ? { upstreamName: spec.mcpServerRef.tool } : {}),
    source: { kind: 'Tool', name: row.name, namespace: row.namespace },
    stats: { totalCalls7d: row.totalCalls7d, failureRate7d: row.failureRate7d },
    ...optionalHealth(healthOfToolRow(row)),
  }
}

const optionalHealth = (health: ToolHealth | undefined) => (health ? { health } : {})

/** One entry of a LanguageTool's `status.toolSchemas`, as discovery stores it (tools/list shape). */
export interface DiscoveredMcpTool {
  name: string
  title?: string
  description?: string
  inputSchema?: unknown
  outputSchema?: unknown
  annotations?: McpToolAnnotations
}

/**
 * Tools of an MCP server under a canonical prefix (the server's name, or a connector's slug); the
 * upstream name is kept for forwarding. Entries with no canonical form are dropped.
 */
export function catalogToolsFromMcp(
  prefix: string,
  server: { name: string; namespace: string; phase?: string; lastError?: string | null },
  discovered: DiscoveredMcpTool[],
  source: CatalogTool['source'],
): CatalogTool[] {
  const out: CatalogTool[] = []
  const health = optionalHealth(healthOfServer(server))
  for (const tool of discovered) {
    const id = canonicalMcpToolId(prefix, tool.name)
    if (!id) continue
    const annotations = annotationsFromMcpHints(tool.annotations)
    out.push({
      name: id,
      namespace: server.namespace,
      description: tool.description ?? tool.title ?? '',
      inputSchema: tool.inputSchema ?? { type: 'object' },
      ...(tool.outputSchema ? { outputSchema: tool.outputSchema } : {}),
      type: 'mcp',
      ...levelFromAnnotations(annotations, tool.annotations),
      annotations,
      upstreamName: tool.name,
      source,
      stats: { totalCalls7d: 0, failureRate7d: null },
      ...health,
    })
  }
  return out
}

/** One entry of a cached image surface (`GET /a2a/tools`, Spring Voyage ToolDefinition). */
export interface ImageToolDefinition {
  name: string
  description: string
  inputSchema: unknown
}

export function catalogToolsFromImage(subject: { kind: 'Agent' | 'Unit'; name: string; namespace: string }, tools: ImageToolDefinition[]): CatalogTool[] {
  const annotations = annotationsForLevel(undefined, undefined)
  return tools.map((tool) => ({
    name: tool.name,
    namespace: subject.namespace,
    description: tool.description,
    inputSchema: tool.inputSchema,
    type: 'function',
    level: UNDECLARED_LEVEL,
    levelSource: 'default',
    annotations,
    source: { kind: subject.kind, name: subject.name, namespace: subject.namespace },
    stats: { totalCalls7d: 0, failureRate7d: null },
  }))
}
