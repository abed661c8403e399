// A week of call history for the freshly seeded demo fleet, so its first screen shows what Toolroom is
// for (README, Quick start). Written as the gateway writes calls (record-call.ts's insertCalls, with
// start times in the past) and counted by the real statistics rollup, never into the rollup tables:
// however ToolCall is stored, the history goes where calls go. Each agent calls the tools its effective
// set gives it, in the gateway's words for each outcome. Deterministic for a given `now`, so tests can
// count on its shape.
import 'server-only'
import { randomUUID } from 'node:crypto'
import { prisma } from '@/lib/db'
import type { EffectiveTool } from '@/lib/effective-tools/types'
import { agentTools, runsInGateway } from '@/lib/gateway/agent-tools'
import { type CallRecord, insertCalls } from '@/lib/gateway/record-call'
import { onBehalfOfColumns } from '@/lib/identity/person'
import { toolStatKey } from '@/lib/stats/tool-stat-key'
import { windowStart } from '@/lib/stats/stats-window'

/**
 * The demo fleet's own agents (prisma/seed/demo-fleet.yaml labels each): history and traffic are only
 * ever theirs, so a database that holds other agents too (TOOLROOM_DEMO=1 on a shared DATABASE_URL)
 * never sees credentials issued to, or calls made as, agents that are not the demo's.
 */
export const DEMO_AGENTS = { labels: { path: ['app.kubernetes.io/part-of'], equals: 'northwind-demo' } }

/** The demo's one badly failing tool: its history (and the live traffic) show a failure worth explaining. */
export const DEMO_FAILING_TOOL = 'zendesk.search_tickets'
const TOOLS_PER_AGENT = 6
/** The demo identity provider's people (prisma/seed/demo-fleet.yaml, acme-sso) some demo agents act for. */
export const DEMO_PEOPLE = [
  { subject: '00u1jane', displayName: 'Jane Doe' },
  { subject: '00u2omar', displayName: 'Omar Haddad' },
  { subject: '00u3mei', displayName: 'Mei Chen' },
  { subject: '00u4lukas', displayName: 'Lukas Berg' },
]
const DEMO_IDENTITY_PROVIDER = 'acme-sso'
const BATCH = 1000

export interface DemoHistorySummary {
  calls: number
  agents: number
  tools: number
}

/** Small, seedable and good enough for made-up traffic (mulberry32). */
export function demoRandom(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** Calls an agent makes in an hour: busy in the working day (UTC), quiet at night and at weekends. */
function callsInHour(hour: Date, random: () => number): number {
  const h = hour.getUTCHours()
  const weekend = hour.getUTCDay() === 0 || hour.getUTCDay() === 6
  const base = h >= 8 && h < 19 ? 5 : h >= 6 && h < 22 ? 2 : 0.4
  return Math.floor(base * (weekend ? 0.3 : 1) * (0.5 + random()))
}

type Outcome = Pick<CallRecord, 'outcome' | 'errorCode' | 'errorMessage'>
const ok = (outcome: string): Outcome => ({ outcome, errorCode: null, errorMessage: null })

/** How one call of `tool` ended: mostly well, with the failures and refusals a real fleet sees. */
function outcomeOf(tool: EffectiveTool, random: () => number, hoursAgo: number): Outcome {
  const r = random()
  if (tool.name === DEMO_FAILING_TOOL) {
    // Failing since yesterday: the upstream started answering 503s.
    if (hoursAgo < 30 && r < 0.6) return { outcome: 'failed', errorCode: 'upstream_error', errorMessage: 'upstream answered 503 Service Unavailable' }
    if (r < 0.05) return { outcome: 'failed', errorCode: 'timeout', errorMessage: 'the upstream did not answer within 30 s' }
    return ok('succeeded')
  }
  if (tool.requiresApproval) {
    if (r < 0.12) return { outcome: 'rejected', errorCode: 'approval_denied', errorMessage: 'denied by an approver' }
    if (r < 0.16) return { outcome: 'expired', errorCode: 'approval_expired', errorMessage: 'no approver decided before the request expired' }
    return ok('approved')
  }
  if (r < 0.02) return { outcome: 'failed', errorCode: 'upstream_error', errorMessage: 'upstream answered 502 Bad Gateway' }
  if (r < 0.035)
    return {
      outcome: 'rate_limited',
      errorCode: 'rate_limit_tool_minute',
      errorMessage: `${tool.name} allows ${tool.rateLimit.callsPerMinute ?? 60} calls a minute`,
    }
  if (r < 0.045) return { outcome: 'invalid_arguments', errorCode: 'schema', errorMessage: `arguments of ${tool.name} do not match its inputSchema` }
  return ok('succeeded')
}

/**
 * Writes the history of every agent and returns what it wrote. Meant for the demo's first start only
 * (seed-demo.ts calls it after seeding the fleet); the statistics rollup then counts it.
 */
export async function seedDemoHistory(options: { now?: Date; seed?: number } = {}): Promise<DemoHistorySummary> {
  const now = options.now ?? new Date()
  const random = demoRandom(options.seed ?? 29)
  // The statistics' window, whole: today and the six days before (UTC); nothing lies in the future.
  const firstHour = windowStart(now).getTime()
  const agents = await prisma.agent.findMany({ where: DEMO_AGENTS, select: { id: true }, orderBy: [{ namespace: 'asc' }, { name: 'asc' }] })
  const records: CallRecord[] = []
  const toolKeys = new Set<string>()
  // Who calls are made for, from a stream of its own so the rest of the history stays as it was:
  // every other agent acts for the demo IdP's people most of the time, the rest act as services.
  const idp = await prisma.identityProvider.findFirst({ where: { name: DEMO_IDENTITY_PROVIDER }, select: { issuer: true } })
  const personRandom = demoRandom((options.seed ?? 29) + 1)
  let callers = 0
  for (const [index, { id }] of agents.entries()) {
    const actsForPeople = idp !== null && index % 2 === 0
    const tools = await agentTools(id)
    if (!tools) continue
    const usable = [...tools.enabled.values()].sort((a, b) => a.name.localeCompare(b.name))
    // Each agent uses a handful of its tools, the failing one whenever it has it.
    const picked = usable.filter((t) => t.name === DEMO_FAILING_TOOL)
    for (const t of usable) if (picked.length < TOOLS_PER_AGENT && !picked.includes(t) && random() < 0.5) picked.push(t)
    const denied = [...tools.unavailable.values()].find((t) => t.state === 'denied')
    if (picked.length === 0) continue
    callers++
    for (let hour = firstHour; hour <= now.getTime(); hour += 3_600_000) {
      const n = callsInHour(new Date(hour), random)
      for (let i = 0; i < n; i++) {
        const startedAt = new Date(hour + Math.floor(random() * 3_600_000))
        // The last minute is left to the live traffic (and nothing lies in the future).
        if (startedAt.getTime() > now.getTime() - 60_000) continue
        // Now and then an agent asks for a tool its set denies it: the gateway refuses it.
        const tool = denied && random() < 0.03 ? denied : picked[Math.floor(random() * picked.length)]
        const outcome =
          tool === denied
            ? { outcome: 'denied', errorCode: 'safety', errorMessage: `${tool.name} is not available to this agent: ${tool.reason ?? 'denied'}` }
            : outcomeOf(tool, random, (now.getTime() - hour) / 3_600_000)
        const ran = ['succeeded', 'failed', 'approved'].includes(outcome.outcome)
        const latencyMs = ran ? Math.round(40 + 260 * random() ** 2 + (outcome.errorCode === 'timeout' ? 30_000 : 0)) : Math.round(2 + 8 * random())
        const key = toolStatKey(tool.source, tool.name)
        const person = actsForPeople && personRandom() < 0.8 ? DEMO_PEOPLE[Math.floor(personRandom() * DEMO_PEOPLE.length)] : null
        if (tool !== denied) toolKeys.add(key)
        records.push({
          id: randomUUID(),
          startedAt,
          finishedAt: new Date(startedAt.getTime() + latencyMs),
          agentId: tools.agent.id,
          agentNamespace: tools.agent.namespace,
          agentName: tools.agent.name,
          unit: tools.agent.unit,
          toolId: tool.name,
          toolNamespace: tool.toolNamespace,
          toolKey: tool === denied ? null : key,
          provenance: tool.provenance,
          level: tool.sideEffects.level,
          channel: runsInGateway(tool) ? 'mcp' : 'ingest',
          ...outcome,
          latencyMs,
          attempts: outcome.errorCode === 'upstream_error' ? 3 : 1,
          idempotencyKey: null,
          args: null,
          result: null,
          requestId: null,
          ...onBehalfOfColumns(person && idp ? { issuer: idp.issuer, ...person } : null),
        })
      }
    }
  }
  let written = 0
  for (let i = 0; i < records.length; i += BATCH) written += await insertCalls(records.slice(i, i + BATCH))
  return { calls: written, agents: callers, tools: toolKeys.size }
}
