// The demo fleet at work while `npm start` runs (README, Quick start): its agents call their tools
// through the real gateway, as MCP clients holding credentials of their own, so the dashboard, the
// calls list and the approval queue fill the way a real fleet fills them: mostly successes, the
// demo's failing tool failing, a burst now and then that the rate limit refuses, and a few calls held
// for approval (never more than DEMO_PENDING_APPROVALS waiting). TOOLROOM_DEMO_TRAFFIC=0 turns it off.
import 'server-only'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { createAgentCredential } from '@/lib/agent-credentials/agent-credentials'
import { systemContext } from '@/lib/audit/audit-actor'
import { prisma } from '@/lib/db'
import type { EffectiveTool } from '@/lib/effective-tools/types'
import { agentTools, runsInGateway } from '@/lib/gateway/agent-tools'
import type { Row } from '@/lib/resources/kind-adapters'
import { DEMO_AGENTS, DEMO_FAILING_TOOL, demoRandom } from './seed-demo-history'

/** The credential name the demo's agents call with; replaced on every start (tokens are shown only once). */
export const DEMO_TRAFFIC_CREDENTIAL = 'demo-traffic'
/** Calls held for approval at once, at most: enough to show the queue, few enough to decide by hand. */
export const DEMO_PENDING_APPROVALS = 3

type Schema = {
  type?: string | string[]
  properties?: Record<string, Schema>
  required?: string[]
  enum?: unknown[]
  examples?: unknown[]
  default?: unknown
  const?: unknown
  format?: string
  minimum?: number
  minItems?: number
  items?: Schema
  minLength?: number
}

/** Arguments that satisfy a tool's inputSchema: its required properties, each from its enum, example, default or type. Pure. */
export function demoArguments(schema: unknown): Record<string, unknown> {
  const value = valueFor(schema as Schema, 0)
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {}
}

function valueFor(schema: Schema | undefined, depth: number): unknown {
  if (!schema || typeof schema !== 'object' || depth > 6) return 'demo'
  if (schema.const !== undefined) return schema.const
  if (schema.enum?.length) return schema.enum[0]
  if (schema.examples?.length) return schema.examples[0]
  if (schema.default !== undefined) return schema.default
  const type = Array.isArray(schema.type) ? schema.type[0] : (schema.type ?? (schema.properties ? 'object' : 'string'))
  switch (type) {
    case 'object':
      return Object.fromEntries((schema.required ?? []).map((key) => [key, valueFor(schema.properties?.[key], depth + 1)]))
    case 'array':
      return Array.from({ length: schema.minItems ?? 0 }, () => valueFor(schema.items, depth + 1))
    case 'integer':
    case 'number':
      return Math.max(schema.minimum ?? 1, 1)
    case 'boolean':
      return false
    case 'null':
      return null
    default:
      if (schema.format === 'date-time') return '2026-11-20T09:00:00Z'
      if (schema.format === 'date') return '2026-11-20'
      if (schema.format === 'email') return 'customer@example.com'
      if (schema.format === 'uri' || schema.format === 'url') return 'https://example.com/'
      return 'demo'.padEnd(schema.minLength ?? 0, '-')
  }
}

interface Caller {
  name: string
  client: Client
  /** Tools expected to work (the gateway runs them and their status is not Failed). */
  healthy: EffectiveTool[]
  approval: EffectiveTool[]
  failing: EffectiveTool | undefined
  /** The tool with the tightest per-minute limit, for a burst the limit refuses. */
  limited: EffectiveTool | undefined
}

/** One call as the traffic makes it: which kind of call, so the test and the log can tell. */
export type DemoCallKind = 'healthy' | 'failing' | 'burst' | 'approval'

export interface DemoTraffic {
  callers: string[]
  /** Makes one round: each agent calls once (a burst counts once). */
  tick(): Promise<DemoCallKind[]>
  stop(): Promise<void>
}

/**
 * Connects the demo agents to the gateway at `gatewayUrl` (each with a fresh credential, the last
 * start's revoked) and returns the traffic, ready to tick. Agents without a tool the gateway runs stay
 * quiet.
 */
export async function connectDemoTraffic(gatewayUrl: string, options: { seed?: number } = {}): Promise<DemoTraffic> {
  const random = demoRandom(options.seed ?? Date.now() % 2 ** 31)
  const { actor } = systemContext('demo-traffic')
  const agents = (await prisma.agent.findMany({ where: DEMO_AGENTS, orderBy: [{ namespace: 'asc' }, { name: 'asc' }] })) as Row[]
  // Tokens are shown once: the last start's credentials can no longer be used, so they go.
  await prisma.agentCredential.deleteMany({ where: { name: DEMO_TRAFFIC_CREDENTIAL, agentId: { in: agents.map((a) => a.id) } } })
  const callers: Caller[] = []
  for (const agent of agents) {
    const tools = await agentTools(agent.id)
    const runnable = [...(tools?.enabled.values() ?? [])].filter(runsInGateway).filter((t) => t.tier !== 'platform')
    if (runnable.length === 0) continue
    const healthy = runnable.filter((t) => !t.requiresApproval && t.name !== DEMO_FAILING_TOOL && (!t.health || t.health.phase === 'Ready'))
    const approval = runnable.filter((t) => t.requiresApproval)
    const failing = runnable.find((t) => t.name === DEMO_FAILING_TOOL)
    const limited = healthy
      .filter((t) => t.rateLimit.callsPerMinute !== null && t.rateLimit.callsPerMinute <= 10)
      .sort((a, b) => a.rateLimit.callsPerMinute! - b.rateLimit.callsPerMinute!)[0]
    if (healthy.length === 0 && approval.length === 0 && !failing) continue
    const { token } = await createAgentCredential(agent, { name: DEMO_TRAFFIC_CREDENTIAL, expiresInDays: 7 }, actor)
    const client = new Client({ name: `northwind-demo/${agent.name}`, version: '1.0.0' })
    await client.connect(new StreamableHTTPClientTransport(new URL(`${gatewayUrl}/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}` } } }))
    callers.push({ name: `${agent.namespace}/${agent.name}`, client, healthy, approval, failing, limited })
  }

  const call = (caller: Caller, tool: EffectiveTool) =>
    // The answer does not matter here (the gateway records it); a refusal is an answer too.
    caller.client.callTool({ name: tool.name, arguments: demoArguments(tool.inputSchema) }).catch(() => undefined)
  const pick = <T>(items: T[]) => items[Math.floor(random() * items.length)]

  async function turn(caller: Caller): Promise<DemoCallKind> {
    const r = random()
    if (caller.approval.length > 0 && r < 0.1) {
      const waiting = await prisma.approvalRequest.count({ where: { status: 'pending' } })
      if (waiting < DEMO_PENDING_APPROVALS) {
        await call(caller, pick(caller.approval))
        return 'approval'
      }
    }
    if (caller.failing && r < 0.3) {
      await call(caller, caller.failing)
      return 'failing'
    }
    if (caller.limited && r > 0.95) {
      // One more than the limit allows, at once: the last ones are refused as rate_limited.
      await Promise.all(Array.from({ length: caller.limited.rateLimit.callsPerMinute! + 1 }, () => call(caller, caller.limited!)))
      return 'burst'
    }
    const tool = caller.healthy.length > 0 ? pick(caller.healthy) : (caller.failing ?? pick(caller.approval))
    await call(caller, tool)
    return tool === caller.failing ? 'failing' : caller.approval.includes(tool) ? 'approval' : 'healthy'
  }

  return {
    callers: callers.map((c) => c.name),
    tick: () => Promise.all(callers.map(turn)),
    async stop() {
      await Promise.all(callers.map((c) => c.client.close().catch(() => undefined)))
    },
  }
}
