// Policies end to end with real parts: the five examples of docs/design/policy.md (read from the
// document itself) applied through the API, agents on the official SDK client calling REST tools
// through a gateway server, the REST call endpoint, toolroom.call_tool, an approved call the worker's
// function runs, ingest, and Apply's checks of a condition against the selected tools' schemas.
import { readFileSync } from 'node:fs'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { gatewayRoutes } from '@/lib/api/gateway-routes'
import { applyRoute } from '@/lib/api/registry-routes'
import { explainRoutes } from '@/lib/api/explain-routes'
import { resourceRoutes } from '@/lib/api/resource-routes'
import { prisma } from '@/lib/db'
import { closeMcpSessions } from '@/lib/gateway/executors/mcp'
import { callTool, runApprovedCall } from '@/lib/gateway/call-tool'
import { createGatewayServer } from '@/lib/gateway/server'
import { agentClient, inOneRateWindow, startRestUpstream } from '../support/gateway-fixtures'
import { type Listening, listenOn } from '../support/listen'
import { applyManifest, call, issueAgentCredential } from './helpers'

const DOC_EXAMPLES = [
  ...readFileSync('docs/design/policy.md', 'utf8')
    .split('## Examples')[1]
    .split('\n## ')[0]
    .matchAll(/```yaml\n([\s\S]*?)```/g),
].map((m) => m[1])

let rest: Awaited<ReturnType<typeof startRestUpstream>>
let gateway: Listening
const agents: Record<string, { id: string; token: string }> = {}
const clients: Client[] = []

const toolsManifest = (restUrl: string) => {
  const tool = (name: string, path: string, properties: string, required: string) => `apiVersion: toolroom.dev/v1alpha1
kind: Tool
metadata: { name: ${name}, namespace: northwind }
spec:
  type: rest
  description: ${name}
  endpoint: { method: POST, url: "${restUrl}${path}" }
  inputSchema: { type: object, required: [${required}], properties: { ${properties} } }
  sideEffects: { level: external_write, idempotent: false }
---
`
  const agent = (name: string, namespace: string, labels: string) => `apiVersion: toolroom.dev/v1alpha1
kind: Agent
metadata: { name: ${name}, namespace: ${namespace}, labels: { ${labels} } }
spec:
  grants: [northwind/stripe.create_refund, northwind/kube.delete_pod, northwind/github.create_issue, northwind/payments.send_payment, northwind/mail.send_email]
---
`
  return (
    tool('stripe.create_refund', '/refund', 'amount: { type: integer }, currency: { type: string }', 'amount') +
    tool('kube.delete_pod', '/delete-pod', 'namespace: { type: string }, name: { type: string }', 'namespace, name') +
    tool('github.create_issue', '/issue', 'repo: { type: string }, title: { type: string }', 'repo, title') +
    tool('payments.send_payment', '/pay', 'amount: { type: number }, to: { type: string }', 'amount, to') +
    tool('mail.send_email', '/mail', 'to: { type: string }, subject: { type: string }', 'to, subject') +
    agent('ap-bot', 'northwind', 'team: ap, role: outreach') +
    agent('ops-bot', 'northwind', 'team: ops') +
    agent('elsewhere-bot', 'other-team', 'team: ap, role: outreach')
  )
}

type ToolResult = { isError?: boolean; structuredContent?: Record<string, unknown>; content: Array<{ type: string; text?: string }> }

/** Calls over MCP; a JSON-RPC error is returned as `{ error }` rather than thrown. */
async function mcpCall(
  client: Client,
  name: string,
  args: Record<string, unknown>,
): Promise<ToolResult | { error: { code: number; message: string; data?: Record<string, unknown> } }> {
  try {
    return (await client.callTool({ name, arguments: args })) as ToolResult
  } catch (e) {
    const err = e as { code: number; message: string; data?: Record<string, unknown> }
    return { error: { code: err.code, message: err.message, data: err.data } }
  }
}

const hits = (path: string) => rest.hits.get(path) ?? 0
const restCall = (agent: string, toolId: string, args: Record<string, unknown>) =>
  call(gatewayRoutes.callTool, `/api/v1/gateway/tools/${toolId}/call`, {
    method: 'POST',
    body: { arguments: args },
    params: { toolId },
    headers: { authorization: `Bearer ${agents[agent].token}` },
  })
const identity = (name: string) => ({
  kind: 'agent' as const,
  agentId: agents[name].id,
  name,
  namespace: name === 'elsewhere-bot' ? 'other-team' : 'northwind',
  credentialId: '',
  person: null,
})

let ap: Client
let ops: Client
let elsewhere: Client

beforeAll(async () => {
  await prisma.$executeRawUnsafe(
    'TRUNCATE "Tool", "LanguageTool", "Connector", "Unit", "Agent", "Secret", "SideEffectPolicy", "Policy", "ToolCall", "AgentCredential", "ApprovalRequest", "GatewayRateCounter", "GatewayIdempotency"',
  )
  rest = await startRestUpstream()
  await applyManifest(toolsManifest(rest.url))
  expect(DOC_EXAMPLES).toHaveLength(5)
  await applyManifest(DOC_EXAMPLES.join('---\n'))
  for (const [name, namespace] of [
    ['ap-bot', 'northwind'],
    ['ops-bot', 'northwind'],
    ['elsewhere-bot', 'other-team'],
  ]) {
    const row = await prisma.agent.findUniqueOrThrow({ where: { namespace_name: { namespace, name } } })
    agents[name] = { id: row.id, token: await issueAgentCredential(row.id) }
  }
  gateway = await listenOn(createGatewayServer({ port: 0 }))
  ap = await agentClient(gateway.url, agents['ap-bot'].token)
  ops = await agentClient(gateway.url, agents['ops-bot'].token)
  elsewhere = await agentClient(gateway.url, agents['elsewhere-bot'].token)
  clients.push(ap, ops, elsewhere)
})

afterAll(async () => {
  for (const c of clients) await c.close().catch(() => {})
  await closeMcpSessions()
  await gateway?.close()
  await rest?.close()
})

describe('the five examples of docs/design/policy.md, through the gateway', () => {
  it('refunds above 500.00 wait for a person, with the rule’s reason in the queue; smaller ones and other teams run', async () => {
    const before = hits('/refund')
    const held = (await mcpCall(ap, 'stripe.create_refund', { amount: 60000, currency: 'eur' })) as ToolResult
    expect(held.structuredContent).toMatchObject({
      status: 'approval_required',
      policyRules: [{ policy: 'northwind/large-refunds', rule: 0, reason: 'Refunds above 500.00 need a second person' }],
    })
    const request = await prisma.approvalRequest.findUniqueOrThrow({ where: { callId: held.structuredContent!.callId as string } })
    expect(request.policy).toMatchObject({
      source: 'policy_rule',
      rules: [{ policy: 'northwind/large-refunds', rule: 0, reason: 'Refunds above 500.00 need a second person' }],
    })
    expect(hits('/refund')).toBe(before)

    const small = (await mcpCall(ap, 'stripe.create_refund', { amount: 4999 })) as ToolResult
    expect(small.isError).toBeFalsy()
    // The selector's matchLabels: ops-bot is not on the accounts-payable team.
    const otherTeam = (await mcpCall(ops, 'stripe.create_refund', { amount: 60000 })) as ToolResult
    expect(otherTeam.isError).toBeFalsy()
    expect(hits('/refund')).toBe(before + 2)
  })

  it('no kube.delete_pod in namespace prod, over MCP and REST, recorded as denied by the policy', async () => {
    const before = hits('/delete-pod')
    const refused = await mcpCall(ops, 'kube.delete_pod', { namespace: 'prod', name: 'api-7f9' })
    expect(refused).toMatchObject({
      error: {
        code: -32602,
        data: { outcome: 'denied', policy: 'northwind/no-pod-deletes-in-prod', rule: 0, reason: 'Pods in prod are restarted with a rollout, not deleted' },
      },
    })
    const overRest = await restCall('ops-bot', 'kube.delete_pod', { namespace: 'prod', name: 'api-7f9' })
    expect(overRest.status).toBe(403)
    expect(overRest.json.type).toBe('https://toolroom.dev/problems/policy-denied')
    expect(overRest.json.detail).toContain('policy northwind/no-pod-deletes-in-prod')
    const record = await prisma.toolCall.findFirstOrThrow({ where: { id: overRest.json.callId } })
    expect(record).toMatchObject({ outcome: 'denied', errorCode: 'policy', channel: 'rest' })
    expect(hits('/delete-pod')).toBe(before)

    const staging = (await mcpCall(ops, 'kube.delete_pod', { namespace: 'staging', name: 'api-7f9' })) as ToolResult
    expect(staging.isError).toBeFalsy()
    expect(hits('/delete-pod')).toBe(before + 1)
  })

  it('github.create_issue only in our organisation’s repositories', async () => {
    const before = hits('/issue')
    expect(await mcpCall(ops, 'github.create_issue', { repo: 'evil-corp/app', title: 'hi' })).toMatchObject({
      error: { data: { policy: 'northwind/issues-in-our-org' } },
    })
    // A look-alike that only a prefix test would let through.
    expect(await mcpCall(ops, 'github.create_issue', { repo: 'northwind/app/../../evil', title: 'hi' })).toMatchObject({
      error: { data: { policy: 'northwind/issues-in-our-org' } },
    })
    expect(((await mcpCall(ops, 'github.create_issue', { repo: 'northwind/app', title: 'hi' })) as ToolResult).isError).toBeFalsy()
    expect(hits('/issue')).toBe(before + 1)
  })

  it('reads the person a call is made for: issues are filed only for people of our own company, and not for nobody', async () => {
    await applyManifest(`apiVersion: toolroom.dev/v1alpha1
kind: Policy
metadata: { name: issues-for-our-people, namespace: northwind }
spec:
  selector: { tools: [github.create_issue] }
  rules:
    - when: "person == null || !person.email.endsWith('@northwind.example') || !('engineering' in person.groups)"
      effect: deny
      reason: Issues are filed only for Northwind engineers
`)
    try {
      const jane = {
        issuer: 'https://idp.northwind.example',
        subject: 'jane',
        displayName: 'Jane Doe',
        email: 'jane@northwind.example',
        via: 'token_exchange' as const,
      }
      const asJane = (claims: Record<string, unknown>, email = jane.email) => ({ ...identity('ops-bot'), person: { ...jane, email, claims } })
      const args = { repo: 'northwind/portal', title: 'Fix the thing' }
      const before = hits('/issue')
      expect(await callTool({ agent: asJane({ groups: ['engineering', 7] }), channel: 'rest' }, 'github.create_issue', args)).toHaveProperty('result')
      for (const agent of [identity('ops-bot'), asJane({ groups: ['sales'] }), asJane({ groups: ['engineering'] }, 'jane@evil.example')])
        expect(await callTool({ agent, channel: 'rest' }, 'github.create_issue', args)).toMatchObject({
          error: { data: { outcome: 'denied', policy: 'northwind/issues-for-our-people' } },
        })
      expect(hits('/issue')).toBe(before + 1)
    } finally {
      await prisma.policy.deleteMany({ where: { name: 'issues-for-our-people' } })
    }
  })

  it('payments only on working days in Berlin, judged on the clock the call is given', async () => {
    const before = hits('/pay')
    const args = { amount: 120.5, to: 'ACME GmbH' }
    // Saturday 10:00 in Berlin; and Sunday 23:30 UTC, which is already Monday there.
    const saturday = await callTool({ agent: identity('ops-bot'), channel: 'rest', now: new Date('2026-11-28T09:00:00Z') }, 'payments.send_payment', args)
    expect(saturday).toMatchObject({ error: { data: { outcome: 'denied', policy: 'northwind/payments-on-working-days' } } })
    const mondayInBerlin = await callTool({ agent: identity('ops-bot'), channel: 'rest', now: new Date('2026-11-29T23:30:00Z') }, 'payments.send_payment', args)
    expect(mondayInBerlin).toHaveProperty('result')
    expect(hits('/pay')).toBe(before + 1)
  })

  it('the outreach agent e-mails only our domain, also through toolroom.call_tool; agents of other namespaces are not reached', async () => {
    const before = hits('/mail')
    expect(await mcpCall(ap, 'mail.send_email', { to: 'someone@gmail.example', subject: 'offer' })).toMatchObject({
      error: { data: { policy: 'northwind/mail-to-our-domain' } },
    })
    expect(await mcpCall(ap, 'toolroom.call_tool', { name: 'mail.send_email', arguments: { to: 'someone@gmail.example', subject: 'offer' } })).toMatchObject({
      error: { data: { policy: 'northwind/mail-to-our-domain' } },
    })
    expect(((await mcpCall(ap, 'mail.send_email', { to: 'Ops@Northwind.Example', subject: 'status' })) as ToolResult).isError).toBeFalsy()
    // Same labels, another namespace the Policy does not name (the allowedAgents rule).
    expect(((await mcpCall(elsewhere, 'mail.send_email', { to: 'someone@gmail.example', subject: 'x' })) as ToolResult).isError).toBeFalsy()
    expect(hits('/mail')).toBe(before + 2)
  })
})

describe('explained and previewed', () => {
  it('the explainer names each policy and rule with the values it compared, and the effective set names the policies on each tool', async () => {
    const id = agents['ops-bot'].id
    const res = await call(explainRoutes.explain, `/api/v1/agents/${id}/explain`, {
      method: 'POST',
      body: { tool: 'kube.delete_pod', arguments: { namespace: 'prod', name: 'x' } },
      params: { id },
    })
    expect(res.status, res.text).toBe(200)
    expect(res.json).toMatchObject({ decision: 'denied', refusal: { step: 'policies', errorCode: 'policy' } })
    expect(res.json.policies).toEqual([
      {
        policy: 'northwind/no-pod-deletes-in-prod',
        rule: 0,
        effect: 'deny',
        when: 'args.namespace == "prod"',
        reason: 'Pods in prod are restarted with a rollout, not deleted',
        outcome: 'matched',
        values: { 'args.namespace': 'prod' },
      },
    ])
    const step = (res.json.steps as Array<{ step: string; detail: string }>).find((s) => s.step === 'policies')!
    expect(step.detail).toContain('args.namespace = "prod"')

    const refund = await call(explainRoutes.explain, `/api/v1/agents/${agents['ap-bot'].id}/explain`, {
      method: 'POST',
      body: { tool: 'stripe.create_refund', arguments: { amount: 70000 } },
      params: { id: agents['ap-bot'].id },
    })
    expect(refund.json).toMatchObject({ decision: 'approval_required', approval: { required: true } })

    const agent = await call(resourceRoutes('Agent').get, `/api/v1/agents/${id}`, { params: { id } })
    const entries = agent.json.effectiveTools as Array<{ name: string; policies?: string[] }>
    expect(entries.find((e) => e.name === 'kube.delete_pod')!.policies).toEqual(['northwind/no-pod-deletes-in-prod'])
    expect(entries.find((e) => e.name === 'stripe.create_refund')!.policies).toBeUndefined()
  })

  it("Apply's dry run of a Policy lists the agents and tools it reaches", async () => {
    const res = await call(applyRoute, '/api/v1/apply?dryRun=true', {
      method: 'POST',
      contentType: 'application/yaml',
      body: `apiVersion: toolroom.dev/v1alpha1
kind: Policy
metadata: { name: ap-writes, namespace: northwind }
spec:
  selector: { tools: ["stripe.*", "mail.*"], agents: { matchLabels: { team: ap } } }
  rules: [{ when: "true", effect: require_approval, reason: preview }]
`,
    })
    expect(res.status, res.text).toBe(200)
    expect(res.json.policyReach).toEqual([
      {
        namespace: 'northwind',
        name: 'ap-writes',
        agents: [{ namespace: 'northwind', name: 'ap-bot', tools: ['mail.send_email', 'stripe.create_refund'] }],
        truncated: false,
      },
    ])
    expect(await prisma.policy.count({ where: { name: 'ap-writes' } })).toBe(0)
  })
})

describe('only tightening, failing closed', () => {
  it('a rule that cannot be evaluated refuses the call, naming its policy; redact and limit rules apply to the calls they match', async () => {
    await applyManifest(`apiVersion: joch.dev/v1alpha1
kind: Policy
metadata: { name: mail-rules, namespace: northwind }
spec:
  selector: { tools: [mail.send_email] }
  rules:
    - when: int(args.subject) > 3
      effect: deny
      reason: never evaluates for a word
    - when: "true"
      effect: redact
      redact: { fields: [args.subject] }
      reason: subjects stay out of the log
`)
    const broken = await mcpCall(ops, 'mail.send_email', { to: 'a@northwind.example', subject: 'hello' })
    expect(broken).toMatchObject({ error: { data: { outcome: 'denied', policy: 'northwind/mail-rules', rule: 0 } } })
    expect((broken as { error: { message: string } }).error.message).toMatch(/rule 0 of policy northwind\/mail-rules could not be evaluated .*fail closed/)
    const number = await mcpCall(ops, 'mail.send_email', { to: 'a@northwind.example', subject: '2' })
    expect((number as ToolResult).isError).toBeFalsy()
    const logged = await prisma.toolCall.findFirstOrThrow({ where: { toolId: 'mail.send_email', agentName: 'ops-bot', outcome: 'succeeded' } })
    expect(JSON.stringify(logged.args)).not.toContain('"2"')

    await applyManifest(`apiVersion: toolroom.dev/v1alpha1
kind: Policy
metadata: { name: mail-rules, namespace: northwind }
spec:
  selector: { tools: [mail.send_email] }
  rules:
    - when: args.subject.startsWith("bulk")
      effect: limit
      limit: { perDay: 1 }
      reason: one bulk mail a day
`)
    const bulk = await inOneRateWindow('day', async () => [
      await mcpCall(ops, 'mail.send_email', { to: 'a@northwind.example', subject: 'bulk 1' }),
      await mcpCall(ops, 'mail.send_email', { to: 'a@northwind.example', subject: 'bulk 2' }),
    ])
    expect((bulk[0] as ToolResult).isError).toBeFalsy()
    expect(bulk[1]).toMatchObject({
      error: { code: -32029, data: { outcome: 'rate_limited', appliesTo: 'policy', window: 'day', limit: 1 } },
    })
    expect(((await mcpCall(ops, 'mail.send_email', { to: 'a@northwind.example', subject: 'single' })) as ToolResult).isError).toBeFalsy()
  })

  it('an approved call a policy denies by the time it runs does not run', async () => {
    const held = (await mcpCall(ap, 'stripe.create_refund', { amount: 90000 })) as ToolResult
    const callId = held.structuredContent!.callId as string
    await applyManifest(`apiVersion: toolroom.dev/v1alpha1
kind: Policy
metadata: { name: refund-freeze, namespace: northwind }
spec:
  selector: { tools: [stripe.create_refund] }
  rules:
    - when: args.amount > 80000
      effect: deny
      reason: refunds above 800.00 are frozen
`)
    const before = hits('/refund')
    const outcome = await runApprovedCall({ callId, agentId: agents['ap-bot'].id, toolId: 'stripe.create_refund' }, { amount: 90000 }, null)
    expect(outcome).toMatchObject({ ok: false, error: expect.stringContaining('refused by policy northwind/refund-freeze') })
    expect(hits('/refund')).toBe(before)
    expect(await prisma.toolCall.findFirstOrThrow({ where: { id: callId } })).toMatchObject({ outcome: 'denied', errorCode: 'policy' })
  })

  it('ingest records a call an agent ran against a policy as a violation', async () => {
    const res = await call(gatewayRoutes.ingest, '/api/v1/calls/ingest', {
      method: 'POST',
      body: {
        calls: [
          { toolId: 'mail.send_email', outcome: 'succeeded', startedAt: new Date().toISOString(), args: { to: 'x@gmail.example', subject: 's' } },
          { toolId: 'mail.send_email', outcome: 'succeeded', startedAt: new Date().toISOString(), args: { to: 'x@northwind.example', subject: 's' } },
        ],
      },
      headers: { authorization: `Bearer ${agents['ap-bot'].token}` },
    })
    expect(res.status, res.text).toBe(202)
    const rows = await prisma.toolCall.findMany({ where: { channel: 'ingest', agentName: 'ap-bot' }, orderBy: { startedAt: 'asc' } })
    expect(rows.map((r) => r.errorCode).sort()).toEqual(['policy_violation', null].sort())
    expect(rows.find((r) => r.errorCode)!.errorMessage).toContain('policy northwind/mail-to-our-domain')
  })
})

describe('Apply checks a condition against the tools it selects', () => {
  const policy = (rules: string) => `apiVersion: toolroom.dev/v1alpha1
kind: Policy
metadata: { name: typos, namespace: northwind }
spec:
  selector: { tools: ["stripe.*"] }
  rules:
${rules}`
  const applyText = (body: string) => call(applyRoute, '/api/v1/apply', { method: 'POST', contentType: 'application/yaml', body })
  type Problem = { field: string; rule: string; line: number; column: number; message: string }

  it('refuses a misspelt argument and a mistyped comparison at their line and column', async () => {
    const res = await applyText(
      policy(`    - when: has(args.amout) && args.amout > 5
      effect: deny
      reason: a
    - when: args.currency > 5
      effect: deny
      reason: b
    - when: has(args.amount) && args.amount > 50000
      effect: deny
      reason: fine
`),
    )
    expect(res.status, res.text).toBe(422)
    const errors = res.json.errors as Problem[]
    expect(errors.map((e) => [e.field, e.rule, e.line, e.column])).toEqual([
      ['spec.rules[0].when', 'cel-unknown-argument', 7, 13],
      ['spec.rules[0].when', 'cel-unknown-argument', 7, 13],
      ['spec.rules[1].when', 'cel-type', 10, 13],
    ])
    expect(errors[0].message).toMatch(/^at 1:5: args\.amout is not an argument of the selected tool: stripe\.create_refund \(it has: amount, currency\)/)
    expect(errors[1].message).toMatch(/^at 1:20: args\.amout/)
    expect(errors[2].message).toContain('args.currency is string in stripe.create_refund')
  })

  it('refuses bad CEL, an unknown name and a condition over the cost limit', async () => {
    const res = await applyText(
      policy(`    - when: args.amount >
      effect: deny
      reason: c
    - when: request.user == "x"
      effect: deny
      reason: d
    - when: "[1, 2].all(x, [3, 4].exists(y, x == y))"
      effect: deny
      reason: e
`),
    )
    expect(res.status, res.text).toBe(422)
    expect((res.json.errors as Problem[]).map((e) => [e.field, e.rule, e.line, e.column])).toEqual([
      ['spec.rules[0].when', 'cel-syntax', 7, 13],
      ['spec.rules[1].when', 'cel-unknown-variable', 10, 13],
      ['spec.rules[2].when', 'cel-cost', 13, 13],
    ])
  })
})
