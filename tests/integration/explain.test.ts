// The explainer (POST /api/v1/agents/{id}/explain) against the gateway it explains: the same
// registry, real upstreams, the official SDK client at /mcp. It must decide as the gateway decides
// (a property test of random calls, each explained and then made), touch nothing while explaining,
// refuse hostile input with problems naming the field, and offer fixes that, once applied, work.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { McpError } from '@modelcontextprotocol/sdk/types.js'
import fc from 'fast-check'
import { parse } from 'yaml'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { reloadConfig } from '@/lib/config'
import { explainRoutes } from '@/lib/api/explain-routes'
import { fleetRoutes } from '@/lib/api/fleet-routes'
import { rollupCallStats } from '@/lib/stats/rollup-call-stats'
import { prisma } from '@/lib/db'
import { renderIdempotencyKey } from '@/lib/gateway/idempotency-key'
import type { Explanation } from '@/lib/explain/explanation-schema'
import { agentClient, inOneRateWindow, startGatewayWorld } from '../support/gateway-fixtures'
import { applyManifest, call, type Caller } from './helpers'
import { sessionCookie } from './access-fixtures'

type World = Awaited<ReturnType<typeof startGatewayWorld>>

let world: World
let tokens: World['tokens']
let clientA: Client
let clientB: Client

const explain = (agentId: string, body: unknown, as: Caller = 'admin') =>
  call(explainRoutes.explain, `/api/v1/agents/${agentId}/explain`, { method: 'POST', body, params: { id: agentId }, as })
async function explained(agentId: string, body: Record<string, unknown>): Promise<Explanation> {
  const res = await explain(agentId, body)
  if (res.status !== 200) throw new Error(`explain answered ${res.status}: ${res.text}`)
  return res.json
}

beforeAll(async () => {
  delete process.env.TOOLROOM_ENABLE_OS_TOOLS
  reloadConfig()
  world = await startGatewayWorld('sk-live-EXPLAINER-4d5e6f7a8b9c')
  tokens = world.tokens
  clientA = await agentClient(world.gatewayUrl, tokens.tokenA)
  clientB = await agentClient(world.gatewayUrl, tokens.tokenB)
})

afterAll(async () => {
  await clientA?.close()
  await clientB?.close()
  await world?.stop()
})

/** What the gateway did with the call, read from its own record (none: refused before recording). */
async function gatewayVerdict(client: Client, agentId: string, name: string, args: Record<string, unknown>, key: string | undefined) {
  const before = await prisma.toolCall.findFirst({ where: { agentId }, orderBy: { startedAt: 'desc' }, select: { id: true } })
  let answer: 'result' | number
  try {
    await client.callTool({ name, arguments: args, ...(key !== undefined ? { _meta: { idempotencyKey: key } } : {}) })
    answer = 'result'
  } catch (e) {
    if (!(e instanceof McpError)) throw e
    answer = e.code
  }
  const record = await prisma.toolCall.findFirst({ where: { agentId }, orderBy: { startedAt: 'desc' } })
  // toolroom.call_tool without a tool name is refused before any record: only the answer tells.
  if (!record || record.id === before?.id)
    return { recorded: false, decision: answer === -32602 ? 'invalid_arguments' : `unrecorded ${answer}`, deduplicated: false, errorCode: null, answer }
  const decision =
    record.outcome === 'denied'
      ? record.errorCode === 'unknown_tool'
        ? 'unknown_tool'
        : 'denied'
      : record.outcome === 'pending_approval'
        ? 'approval_required'
        : record.outcome === 'invalid_arguments' || record.outcome === 'rate_limited'
          ? record.outcome
          : record.outcome === 'deduplicated'
            ? 'deduplicated'
            : 'allowed'
  // A call that ran (and maybe failed upstream) has an error code of its own; only refusals are the pipeline's.
  const refused = ['denied', 'invalid_arguments', 'rate_limited'].includes(record.outcome)
  return { recorded: true, decision, deduplicated: record.outcome === 'deduplicated', errorCode: refused ? record.errorCode : null, answer }
}

/** Explain's answer in the same terms: a call whose key is held repeats the first call instead. */
function explainVerdict(x: Explanation) {
  const repeats = x.idempotency.heldBy !== null && (x.decision === 'allowed' || x.decision === 'approval_required')
  return { decision: repeats ? 'deduplicated' : x.decision, deduplicated: repeats, errorCode: x.refusal?.errorCode ?? null }
}

const NAMES = [
  'upstream.echo',
  'upstream.create_thing',
  'upstream.explode',
  'things.create',
  'tickets.create',
  'broken.lookup',
  'pay.charge',
  'limited.ping',
  'quiet.ping',
  'secret.only_b',
  'denied.here',
  'toggled.off',
  'shell.echo',
  'local.summarize',
  'toolroom.list_tools',
  'toolroom.call_tool',
  'nope.nothing',
  'upstream.nope',
]
const FIELDS = ['text', 'name', 'subject', 'body', 'priority', 'x']
const value = fc.oneof(
  fc.constantFrom('a', 'b', 'low', 'urgent', 'Printer on fire'),
  fc.string({ maxLength: 8 }),
  fc.integer({ min: -3, max: 3 }),
  fc.boolean(),
)
const argsArb = fc.dictionary(fc.constantFrom(...FIELDS), value, { maxKeys: 3 })
const callArb = fc.record({
  agent: fc.constantFrom('a', 'b'),
  name: fc.constantFrom(...NAMES),
  args: argsArb,
  // toolroom.call_tool's own arguments: the tool behind the door (or a wrong one) and its arguments.
  door: fc.record({ name: fc.option(fc.constantFrom(...NAMES), { nil: undefined }), arguments: argsArb }),
  key: fc.option(fc.constantFrom('key-1', 'key-2'), { nil: undefined, freq: 3 }),
})

describe('the explainer decides as the gateway does', () => {
  it('for random calls of both agents: each explained, then made through /mcp with the SDK client', async () => {
    const seen = new Set<string>()
    await fc.assert(
      fc.asyncProperty(callArb, async ({ agent, name, args, door, key }) => {
        const [agentId, client] = agent === 'a' ? [tokens.agentA, clientA] : [tokens.agentB, clientB]
        const sent = name === 'toolroom.call_tool' ? { ...(door.name !== undefined ? { name: door.name } : {}), arguments: door.arguments } : args
        // The explanation and its call in one rate window: a pair that straddled a minute's end is asked
        // again, explained and made in the state the first pair left.
        const { x, g } = await inOneRateWindow(
          'minute',
          async () => ({
            x: await explained(agentId, { tool: name, arguments: sent, ...(key !== undefined ? { idempotencyKey: key } : {}) }),
            g: await gatewayVerdict(client, agentId, name, sent, key),
          }),
          { forgetCounts: false },
        )
        const { recorded } = g
        // A key carrying a redacted argument is neither confirmed nor denied as held: only the rest can be compared.
        if (x.idempotency.withheld && g.deduplicated) return
        const ours = explainVerdict(x)
        expect({ call: { agent, name, sent, key }, ...ours, errorCode: recorded ? ours.errorCode : x.refusal?.rpcCode }).toEqual({
          call: { agent, name, sent, key },
          decision: g.decision,
          deduplicated: g.deduplicated,
          errorCode: recorded ? (g.deduplicated ? null : g.errorCode) : g.answer,
        })
        seen.add(g.decision)
      }),
      { numRuns: 120, seed: 20261124 },
    )
    // The runs covered every decision there is (and repeats of a held key).
    expect([...seen].sort()).toEqual(['allowed', 'approval_required', 'deduplicated', 'denied', 'invalid_arguments', 'rate_limited', 'unknown_tool'])
  }, 240_000)
})

describe("refusals in the effective set's figures", () => {
  it('are counted apart (refusedCalls7d), so a tool only ever refused does not read as 0 % failed', async () => {
    process.env.TOOLROOM_STATS_CACHE_SECONDS = '0'
    reloadConfig()
    try {
      // Seven calls of a tool allowed three a minute: at least one is refused, even across a minute's end.
      for (let i = 0; i < 7; i++) await clientA.callTool({ name: 'limited.ping', arguments: {} }).catch(() => null)
      await clientA.callTool({ name: 'toggled.off', arguments: {} }).catch(() => null)
      await rollupCallStats()
      const res = await call(fleetRoutes('Agent').effectiveTools, `/api/v1/agents/${tokens.agentA}/effective-tools?include=excluded`, {
        params: { id: tokens.agentA },
      })
      const rows = await prisma.toolCall.groupBy({ by: ['toolKey', 'outcome'], where: { agentId: { in: [tokens.agentA, tokens.agentB] } }, _count: true })
      const refusedOf = (key: string) =>
        rows.filter((r) => r.toolKey === key && ['denied', 'invalid_arguments', 'rate_limited'].includes(r.outcome)).reduce((n, r) => n + r._count, 0)
      const limited = res.json.effectiveTools.find((t: { name: string }) => t.name === 'limited.ping')
      expect(limited.refusedCalls7d).toBe(refusedOf('Tool/gw/limited.ping'))
      expect(limited.refusedCalls7d).toBeGreaterThan(0)
      const toggled = res.json.effectiveTools.find((t: { name: string }) => t.name === 'toggled.off')
      expect(toggled).toMatchObject({ refusedCalls7d: toggled.totalCalls7d })
    } finally {
      delete process.env.TOOLROOM_STATS_CACHE_SECONDS
      reloadConfig()
    }
  })
})

describe('the trace', () => {
  it('lists every candidate of a name with why it won or lost, and the safety rule that denies it', async () => {
    const x = await explained(tokens.agentA, { tool: 'secret.only_b' })
    expect(x.decision).toBe('denied')
    expect(x.refusal).toMatchObject({ step: 'effective-set', errorCode: 'safety', rpcCode: -32602 })
    expect(x.candidates).toEqual([
      expect.objectContaining({ role: 'winner', tier: 'grant', state: 'denied', source: { kind: 'Tool', namespace: 'gw', name: 'secret.only_b' } }),
    ])
    expect(x.candidates[0].why).toMatch(/safety\.allowedAgents/)
    expect(x.safety).toMatchObject({ allowedAgents: ['agent-b'], deniedNamespaces: null, toggle: null })
    expect(x.steps.map((s) => [s.step, s.outcome])).toEqual([
      ['effective-set', 'refused'],
      ['executor', 'not-reached'],
      ['arguments', 'not-reached'],
      ['policies', 'not-reached'],
      ['rate-limits', 'not-reached'],
      ['idempotency', 'not-reached'],
      ['approval', 'not-reached'],
    ])
  })

  it('says which toggle turns a tool off', async () => {
    const x = await explained(tokens.agentA, { tool: 'toggled.off' })
    expect(x.decision).toBe('denied')
    expect(x.refusal?.errorCode).toBe('disabled')
    expect(x.safety?.toggle).toEqual({ enabled: false, where: 'agent "agent-a"' })
  })

  it("names every argument violation, as the gateway's validator does", async () => {
    const x = await explained(tokens.agentA, { tool: 'tickets.create', arguments: { subject: 7, priority: 'whenever', extra: true } })
    expect(x.decision).toBe('invalid_arguments')
    expect(x.arguments.violations.map((v) => `${v.path} ${v.rule}`).sort()).toEqual([
      '/body required',
      '/extra additionalProperties',
      '/priority enum',
      '/subject type',
    ])
  })

  it('gives the approval rule and its expiry, and the idempotency key a call would use', async () => {
    const pay = await explained(tokens.agentA, { tool: 'pay.charge' })
    expect(pay.decision).toBe('approval_required')
    expect(pay.approval).toEqual({ required: true, source: 'policy', level: 'financial', expirySeconds: 86_400, expirySource: 'default' })
    expect(pay.steps.at(-1)).toMatchObject({ step: 'approval', outcome: 'held' })

    const args = { subject: 'Printer on fire', body: 'smoke' }
    const ticket = await explained(tokens.agentA, { tool: 'tickets.create', arguments: args })
    expect(ticket.decision).toBe('allowed')
    expect(ticket.idempotency).toMatchObject({
      key: renderIdempotencyKey('zendesk-{{ args.subject | hash }}', args),
      source: 'template',
      scope: 'tool',
      heldBy: null,
    })
    const own = await explained(tokens.agentA, { tool: 'tickets.create', arguments: args, idempotencyKey: 'mine' })
    expect(own.idempotency).toMatchObject({ key: 'mine', source: 'caller', scope: 'agent', withheld: null })
  })

  it('says which call holds a key, unless the key carries a redacted argument', async () => {
    const args = { subject: 'Held', body: 'body-text-93817' }
    await clientA.callTool({ name: 'tickets.create', arguments: args, _meta: { idempotencyKey: 'plain-key-1' } })
    const plain = await explained(tokens.agentA, { tool: 'tickets.create', arguments: args, idempotencyKey: 'plain-key-1' })
    expect(plain.idempotency.heldBy).toMatchObject({ state: 'done', outcome: 'succeeded' })
    expect(plain.summary).toMatch(/repeats call/)
    expect(plain.steps.at(-1)).toMatchObject({ step: 'approval', outcome: 'not-reached' })
    // body is in redactFields: the call log keeps such a key hashed, and the explainer will not confirm guesses of it.
    await clientA.callTool({ name: 'tickets.create', arguments: args, _meta: { idempotencyKey: 'key-body-text-93817' } })
    const sensitive = await explained(tokens.agentA, { tool: 'tickets.create', arguments: args, idempotencyKey: 'key-body-text-93817' })
    expect(sensitive.idempotency).toMatchObject({ heldBy: null, withheld: expect.stringMatching(/redacted/) })
  })

  it('reports rate-limit headroom of the tool and the agent', async () => {
    const x = await explained(tokens.agentB, { tool: 'slow.read' })
    expect(x.rateLimits.windows).toEqual([expect.objectContaining({ appliesTo: 'agent', window: 'minute', limit: 4 })])
    const w = x.rateLimits.windows[0]
    expect(w.remaining).toBe(w.limit - w.used)
    expect(w.resetsInSeconds).toBeGreaterThan(0)
    expect(w.resetsInSeconds).toBeLessThanOrEqual(60)
  })

  it('explains the tool behind toolroom.call_tool, and a door used without a name', async () => {
    const through = await explained(tokens.agentA, { tool: 'toolroom.call_tool', arguments: { name: 'upstream.echo', arguments: { text: 'hi' } } })
    expect(through.through).toEqual({ door: 'toolroom.call_tool', tool: 'upstream.echo' })
    expect(through.decision).toBe('allowed')
    const misused = await explained(tokens.agentA, { tool: 'toolroom.call_tool', arguments: { arguments: {} } })
    expect(misused.decision).toBe('invalid_arguments')
    expect(misused.summary).toMatch(/needs "name"/)
  })

  it('says an image or function tool runs inside the agent', async () => {
    const x = await explained(tokens.agentA, { tool: 'local.summarize' })
    expect(x.decision).toBe('denied')
    expect(x.refusal).toMatchObject({ step: 'executor', errorCode: 'not_executable' })
    expect(x.executor?.kind).toBe('none')
  })
})

describe('explaining touches nothing', () => {
  it('calls nothing, counts no limit, claims no key, requests no approval and writes no record', async () => {
    const snapshot = async () => ({
      calls: await prisma.toolCall.count(),
      counted: (await prisma.gatewayRateCounter.aggregate({ _sum: { count: true } }))._sum.count ?? 0,
      keys: await prisma.gatewayIdempotency.count(),
      approvals: await prisma.approvalRequest.count(),
      audit: await prisma.auditEvent.count(),
      upstream: { ...world.mcp.counts, rest: world.rest.seen.length },
    })
    const before = await snapshot()
    for (let i = 0; i < 5; i++)
      for (const body of [
        { tool: 'limited.ping' },
        { tool: 'upstream.create_thing', arguments: { name: `n${i}` } },
        { tool: 'things.create', arguments: { name: `fresh-${i}` } },
        { tool: 'pay.charge' },
        { tool: 'tickets.create', arguments: { subject: 's', body: 'b' }, idempotencyKey: `k${i}` },
        { tool: 'nope.nothing' },
      ])
        expect((await explain(tokens.agentA, body)).status).toBe(200)
    expect(await snapshot()).toEqual(before)
  })
})

describe('hostile and malformed input', () => {
  it('is a problem naming the field and rule, never a 500', async () => {
    const longName = await explain(tokens.agentA, { tool: 'x'.repeat(10_000) })
    expect(longName.status).toBe(422)
    expect(longName.contentType).toBe('application/problem+json')
    expect(longName.json.errors).toEqual([expect.objectContaining({ field: 'tool', rule: 'max-length' })])

    const nulName = await explain(tokens.agentA, { tool: 'upstream.echo\u0000' })
    expect(nulName.status).toBe(422)
    expect(nulName.json.errors).toEqual([expect.objectContaining({ field: 'tool', rule: 'storable-text' })])

    const nulKey = await explain(tokens.agentA, { tool: 'upstream.echo', idempotencyKey: 'a\u0000b' })
    expect(nulKey.status).toBe(422)
    expect(nulKey.json.errors[0].field).toBe('idempotencyKey')

    const notObject = await explain(tokens.agentA, { tool: 'upstream.echo', arguments: ['text'] })
    expect(notObject.status).toBe(422)
    expect(notObject.json.errors[0].field).toBe('arguments')

    const extra = await explain(tokens.agentA, { tool: 'upstream.echo', callNow: true })
    expect(extra.status).toBe(422)
    expect(extra.json.errors).toEqual([expect.objectContaining({ field: 'callNow', rule: 'unknown-field' })])

    const missing = await explain(tokens.agentA, {})
    expect(missing.status).toBe(422)
    expect(missing.json.errors[0].field).toBe('tool')

    const broken = await call(explainRoutes.explain, `/api/v1/agents/${tokens.agentA}/explain`, {
      method: 'POST',
      body: '{"tool": "upstream.echo"',
      contentType: 'application/json',
      params: { id: tokens.agentA },
    })
    expect(broken.status).toBe(400)
    expect(broken.json.errors).toEqual([expect.objectContaining({ field: '(body)', rule: 'json-syntax' })])

    const unknownAgent = await explain('00000000-0000-4000-8000-000000000000', { tool: 'upstream.echo' })
    expect(unknownAgent.status).toBe(404)
    expect(unknownAgent.contentType).toBe('application/problem+json')
  })

  it('takes NUL in argument values as the gateway does, and deep or huge arguments as it does', async () => {
    const nul = await explained(tokens.agentA, { tool: 'upstream.echo', arguments: { text: 'a\u0000b' } })
    expect(nul.decision).toBe('allowed')

    let deep: Record<string, unknown> = { end: true }
    for (let i = 0; i < 100; i++) deep = { d: deep }
    const tooDeep = await explained(tokens.agentA, { tool: 'upstream.echo', arguments: { text: 'x', deep } })
    expect(tooDeep.decision).toBe('invalid_arguments')
    expect(tooDeep.arguments.violations).toEqual([expect.objectContaining({ rule: 'depth' })])

    const huge = await explain(tokens.agentA, { tool: 'upstream.echo', arguments: { text: 'x'.repeat(1024 * 1024 + 10) } })
    expect(huge.status).toBe(413)

    const wide = await explained(tokens.agentA, { tool: 'tickets.create', arguments: Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`f${i}`, i])) })
    expect(wide.decision).toBe('invalid_arguments')
    // The gateway names at most 50 violations; so does its explanation.
    expect(wide.arguments.violations.length).toBeLessThanOrEqual(50)
  })

  it('is open to every signed-in role (read), and to nobody else', async () => {
    const viewer = await sessionCookie('viewer', 'explain')
    expect((await explain(tokens.agentA, { tool: 'upstream.echo' }, { cookie: viewer })).status).toBe(200)
    expect((await explain(tokens.agentA, { tool: 'upstream.echo' }, 'none')).status).toBe(401)
    // An agent credential opens the gateway only, not the explainer.
    expect((await explain(tokens.agentA, { tool: 'upstream.echo' }, { token: tokens.tokenA })).status).toBe(401)
    // A cookie without the same origin cannot make a browser ask (CSRF check of every POST).
    expect((await explain(tokens.agentA, { tool: 'upstream.echo' }, { cookie: viewer, origin: 'https://evil.example' })).status).toBe(403)
  })
})

describe('fixes', () => {
  const applyDraft = async (yaml: string) => {
    await applyManifest(yaml)
  }

  it('are drafts that, applied, let the agent call the tool: allowedAgents, deniedNamespaces, a toggle, a grant', async () => {
    const allowed = await explained(tokens.agentA, { tool: 'secret.only_b' })
    expect(allowed.fixes).toEqual([expect.objectContaining({ action: 'allowedAgents', target: { kind: 'Tool', namespace: 'gw', name: 'secret.only_b' } })])
    expect(parse(allowed.fixes[0].yaml).spec.safety.allowedAgents).toEqual(['agent-b', 'agent-a'])
    await applyDraft(allowed.fixes[0].yaml)
    expect((await explained(tokens.agentA, { tool: 'secret.only_b' })).decision).toBe('allowed')
    // The gateway agrees, once the change reached it.
    expect((await clientA.callTool({ name: 'secret.only_b', arguments: {} })).isError).toBeFalsy()

    const namespace = await explained(tokens.agentA, { tool: 'denied.here' })
    expect(namespace.fixes.map((f) => f.action)).toEqual(['deniedNamespaces'])
    expect(parse(namespace.fixes[0].yaml).spec.safety).toBeUndefined()
    await applyDraft(namespace.fixes[0].yaml)
    expect((await explained(tokens.agentA, { tool: 'denied.here' })).decision).toBe('allowed')

    const toggle = await explained(tokens.agentA, { tool: 'toggled.off' })
    expect(toggle.fixes).toEqual([expect.objectContaining({ action: 'toggle', target: { kind: 'Agent', namespace: 'gw', name: 'agent-a' } })])
    await applyDraft(toggle.fixes[0].yaml)
    const on = await explained(tokens.agentA, { tool: 'toggled.off' })
    expect(on.decision).toBe('allowed')
    expect(on.safety?.toggle).toEqual({ enabled: true, where: 'agent "agent-a"' })

    // A new agent without grants (agent-b's minute of calls may be used up by the runs above).
    await applyDraft('apiVersion: toolroom.dev/v1alpha1\nkind: Agent\nmetadata: { name: agent-c, namespace: gw }\nspec: { description: no tools yet }\n')
    const agentC = (await prisma.agent.findUniqueOrThrow({ where: { namespace_name: { namespace: 'gw', name: 'agent-c' } } })).id
    const unknown = await explained(agentC, { tool: 'quiet.ping' })
    expect(unknown.decision).toBe('unknown_tool')
    expect(unknown.fixes).toEqual([expect.objectContaining({ action: 'grant', target: { kind: 'Agent', namespace: 'gw', name: 'agent-c' } })])
    expect(parse(unknown.fixes[0].yaml).spec).toEqual({ description: 'no tools yet', grants: ['quiet.ping'] })
    await applyDraft(unknown.fixes[0].yaml)
    expect((await explained(agentC, { tool: 'quiet.ping' })).decision).toBe('allowed')
  })

  it('are none where no manifest stands in the way', async () => {
    expect((await explained(tokens.agentA, { tool: 'upstream.echo' })).fixes).toEqual([])
    expect((await explained(tokens.agentA, { tool: 'tickets.create', arguments: {} })).fixes).toEqual([])
    expect((await explained(tokens.agentA, { tool: 'nothing.like_it' })).fixes).toEqual([])
  })
})
