// POST /api/v1/policy-tests, the endpoint behind `toolroom policy test`: an applied Policy and one
// given whole against sample calls, judged by the gateway's own evaluation (the applied Policy's
// verdicts are checked against the explainer's), with its refusals of bad input.
import { beforeAll, describe, expect, it } from 'vitest'
import { explainRoutes } from '@/lib/api/explain-routes'
import { policyRoutes } from '@/lib/api/policy-routes'
import { applyManifest, call, resetDatabase } from './helpers'

const test = (body: unknown) => call(policyRoutes.test, '/api/v1/policy-tests', { method: 'POST', body })

const refunds = {
  selector: { tools: ['stripe.create_refund'], agents: { matchLabels: { team: 'ap' } } },
  rules: [
    { when: 'has(args.amount) && args.amount > 50000', effect: 'require_approval', reason: 'Refunds above 500.00 need a second person' },
    { when: 'args.currency == "XXX"', effect: 'deny', reason: 'No test currency' },
  ],
}

let agentId: string

beforeAll(async () => {
  await resetDatabase()
  const applied = await applyManifest(`apiVersion: toolroom.dev/v1alpha1
kind: Tool
metadata: { name: kube.delete_pod, namespace: pt }
spec:
  type: rest
  description: Deletes a pod
  endpoint: { method: POST, url: "https://kube.example.com/delete" }
  inputSchema: { type: object, required: [namespace], properties: { namespace: { type: string }, name: { type: string } } }
  sideEffects: { level: external_write, idempotent: false }
---
apiVersion: toolroom.dev/v1alpha1
kind: Policy
metadata: { name: no-pod-deletes-in-prod, namespace: pt }
spec:
  selector: { tools: [kube.delete_pod] }
  rules:
    - when: args.namespace == "prod"
      effect: deny
      reason: Pods in prod are restarted with a rollout, not deleted
---
apiVersion: toolroom.dev/v1alpha1
kind: Agent
metadata: { name: ops-bot, namespace: pt }
spec: { grants: [pt/kube.delete_pod] }
`)
  expect(applied.status, applied.text).toBe(200)
  agentId = applied.json.results.find((r: { kind: string }) => r.kind === 'Agent').id
})

describe('POST /api/v1/policy-tests', () => {
  it('judges an applied Policy as the gateway does', async () => {
    const res = await test({
      policy: { namespace: 'pt', name: 'no-pod-deletes-in-prod' },
      cases: [
        { name: 'prod is refused', tool: 'kube.delete_pod', args: { namespace: 'prod', name: 'web-1' }, expect: 'deny' },
        { name: 'staging goes through', tool: 'kube.delete_pod', args: { namespace: 'staging', name: 'web-1' }, expect: 'allow' },
        { name: 'wrongly expected', tool: 'kube.delete_pod', args: { namespace: 'prod' }, expect: 'allow' },
      ],
    })
    expect(res.status, res.text).toBe(200)
    expect(res.json).toMatchObject({ policy: { namespace: 'pt', name: 'no-pod-deletes-in-prod', source: 'applied' }, passed: 2, failed: 1 })
    expect(res.json.cases[0]).toMatchObject({
      effect: 'deny',
      pass: true,
      reached: true,
      message: 'kube.delete_pod is refused by policy pt/no-pod-deletes-in-prod (rule 0): Pods in prod are restarted with a rollout, not deleted',
      rules: [{ rule: 0, outcome: 'matched', values: { 'args.namespace': 'prod' } }],
    })
    expect(res.json.cases[2]).toMatchObject({ name: 'wrongly expected', expect: 'allow', effect: 'deny', pass: false })

    // The explainer, which runs the gateway's pipeline, comes to the same verdicts.
    for (const [namespace, decision] of [
      ['prod', 'denied'],
      ['staging', 'allowed'],
    ]) {
      const explained = await call(explainRoutes.explain, `/api/v1/agents/${agentId}/explain`, {
        method: 'POST',
        body: { tool: 'kube.delete_pod', arguments: { namespace, name: 'web-1' } },
        params: { id: agentId },
      })
      expect(explained.json.decision, explained.text).toBe(decision)
    }
  })

  it('tests a Policy given whole: selectors, every effect, person and time', async () => {
    const res = await test({
      policy: {
        namespace: 'finance',
        name: 'refunds',
        spec: {
          ...refunds,
          rules: [
            ...refunds.rules,
            { when: 'person != null && !("finance" in person.groups)', effect: 'limit', limit: { perMinute: 1 }, reason: 'Outsiders go slowly' },
            { when: 'now.getDayOfWeek("UTC") == 0', effect: 'redact', redact: { fields: ['args.note'] }, reason: 'Sunday notes are private' },
          ],
        },
      },
      cases: [
        { tool: 'stripe.create_refund', agent: { labels: { team: 'ap' } }, args: { amount: 70000, currency: 'EUR' }, expect: 'require_approval' },
        { tool: 'stripe.create_refund', agent: { labels: { team: 'ap' } }, args: { amount: 100, currency: 'XXX' }, expect: 'deny' },
        { name: 'not the team', tool: 'stripe.create_refund', agent: { labels: { team: 'ops' } }, args: { amount: 70000 }, expect: 'allow' },
        {
          name: 'other namespace',
          tool: 'stripe.create_refund',
          agent: { namespace: 'sales', labels: { team: 'ap' } },
          args: { amount: 70000 },
          expect: 'allow',
        },
        { name: 'other tool', tool: 'stripe.list_refunds', agent: { labels: { team: 'ap' } }, args: { amount: 70000 }, expect: 'allow' },
        {
          name: 'an outsider',
          tool: 'stripe.create_refund',
          agent: { labels: { team: 'ap' } },
          args: { amount: 5, currency: 'EUR' },
          person: { id: 'ada', issuer: 'https://idp.example.com', groups: ['sales'] },
          now: '2026-11-25T12:00:00Z',
          expect: 'limit',
        },
        {
          name: 'a Sunday',
          tool: 'stripe.create_refund',
          agent: { labels: { team: 'ap' } },
          args: { amount: 5, currency: 'EUR' },
          now: '2026-11-29T12:00:00+01:00',
          expect: 'redact',
        },
        { name: 'fails closed', tool: 'stripe.create_refund', agent: { labels: { team: 'ap' } }, args: { amount: 5 }, expect: 'error' },
      ],
    })
    expect(res.status, res.text).toBe(200)
    expect(res.json.cases.filter((c: { pass: boolean }) => !c.pass)).toEqual([])
    expect(res.json).toMatchObject({ policy: { source: 'request' }, passed: 8, failed: 0 })
    expect(res.json.cases[2]).toMatchObject({ reached: false, rules: [] })
    expect(res.json.cases[7].message).toMatch(/rule 1 of policy finance\/refunds could not be evaluated .*policies fail closed/)
  })

  it('refuses a Policy Apply would refuse, with the field and the rule', async () => {
    const res = await test({
      policy: { name: 'bad', spec: { selector: { tools: ['x.y'] }, rules: [{ when: 'args.a.all(x, args.b.all(y, x == y))', effect: 'deny', reason: 'r' }] } },
      cases: [{ tool: 'x.y', expect: 'allow' }],
    })
    expect(res.status, res.text).toBe(422)
    expect(res.json.errors).toEqual([expect.objectContaining({ field: 'policy.spec.rules[0].when', rule: 'cel-cost' })])

    const unknown = await test({
      policy: { name: 'bad', spec: { selector: { tools: ['x.y'] }, rules: [{ when: 'secrets.x', effect: 'deny', reason: 'r' }] } },
      cases: [{ tool: 'x.y', expect: 'allow' }],
    })
    expect(unknown.json.errors).toEqual([expect.objectContaining({ field: 'policy.spec.rules[0].when', rule: 'cel-unknown-variable' })])

    const badExpect = await test({ policy: { namespace: 'pt', name: 'no-pod-deletes-in-prod' }, cases: [{ tool: 'kube.delete_pod', expect: 'refuse' }] })
    expect(badExpect.status).toBe(422)
    expect(badExpect.json.errors[0]).toMatchObject({ field: 'cases[0].expect' })
  })

  it('answers 404 for a Policy that is not applied', async () => {
    const res = await test({ policy: { namespace: 'pt', name: 'nothing-here' }, cases: [{ tool: 'kube.delete_pod', expect: 'allow' }] })
    expect(res.status, res.text).toBe(404)
    expect(res.json.detail).toContain('pt/nothing-here')
  })
})
