// Two agents (or an agent and a unit) side by side (GET /api/v1/agents/{id}/compare): what each can
// call that the other cannot, why not (for an agent, the explainer's own answer) and the fix drafts,
// which once applied close the gap.
import { parse } from 'yaml'
import { beforeEach, describe, expect, it } from 'vitest'
import { explainRoutes } from '@/lib/api/explain-routes'
import type { Comparison } from '@/lib/explain/comparison-schema'
import { prisma } from '@/lib/db'
import { applyManifest, call, resetDatabase, yaml } from './helpers'

const tool = (name: string, extra = '') => yaml`
apiVersion: toolroom.dev/v1alpha1
kind: Tool
metadata: { name: ${name}, namespace: cmp }
spec:
  type: function
  description: ${name} does its job
  inputSchema: { type: object }
${extra}`

const fleet = [
  tool('acme.lookup'),
  tool('acme.refund', '  safety: { allowedAgents: [alpha] }\n'),
  tool('billing.charge'),
  yaml`
apiVersion: toolroom.dev/v1alpha1
kind: Unit
metadata: { name: team, namespace: cmp }
spec: { grants: [acme.lookup] }
---
apiVersion: toolroom.dev/v1alpha1
kind: Unit
metadata: { name: bare, namespace: cmp }
spec: {}
---
apiVersion: toolroom.dev/v1alpha1
kind: Agent
metadata: { name: alpha, namespace: cmp }
spec: { unit: team, grants: [acme.refund, billing.charge] }
---
apiVersion: toolroom.dev/v1alpha1
kind: Agent
metadata: { name: beta, namespace: cmp }
spec: { unit: team, grants: [acme.refund], toggles: { acme.lookup: false } }
`,
].join('---\n')

const compare = (id: string, query: string) => call(explainRoutes.compare, `/api/v1/agents/${id}/compare?${query}`, { params: { id } })
async function compared(id: string, query: string): Promise<Comparison> {
  const res = await compare(id, query)
  if (res.status !== 200) throw new Error(`compare answered ${res.status}: ${res.text}`)
  return res.json
}
const brief = (side: Comparison['onlyLeft']) =>
  side.map((d) => `${d.tool} ${d.has.provenance} | ${d.lacks.state} | ${d.lacks.fixes.map((f) => f.action).join(',')}`)

beforeEach(async () => {
  await resetDatabase()
  await applyManifest(fleet)
})

describe('comparing effective sets', () => {
  it("of two agents says what only one can call, why the other cannot (the explainer's answer) and how to fix it", async () => {
    const ans = await compared('alpha', 'namespace=cmp&with=beta')
    expect(ans.left).toMatchObject({ kind: 'Agent', namespace: 'cmp', name: 'alpha' })
    expect(ans.right).toMatchObject({ kind: 'Agent', namespace: 'cmp', name: 'beta' })
    expect(brief(ans.onlyLeft)).toEqual([
      'acme.lookup grant | disabled | toggle',
      'acme.refund grant | denied | allowedAgents',
      'billing.charge grant | absent | grant',
    ])
    expect(ans.onlyLeft[0].has.inheritedFromUnit).toBe('team')
    expect(ans.onlyRight).toEqual([])
    expect(ans.same).toBeGreaterThan(0)

    const beta = await prisma.agent.findUniqueOrThrow({ where: { namespace_name: { namespace: 'cmp', name: 'beta' } } })
    for (const d of ans.onlyLeft) {
      const res = await call(explainRoutes.explain, `/api/v1/agents/${beta.id}/explain`, { method: 'POST', body: { tool: d.tool }, params: { id: beta.id } })
      expect(d.lacks.reason).toBe(res.json.summary)
      expect(d.lacks.fixes).toEqual(res.json.fixes)
    }

    // The other way round, the same gaps on the other side.
    const reverse = await compared(beta.id, 'with=alpha&withNamespace=cmp')
    expect(reverse.onlyLeft).toEqual([])
    expect(reverse.onlyRight.map((d) => d.tool)).toEqual(ans.onlyLeft.map((d) => d.tool))

    // Each draft is the whole manifest as stored: applied one at a time, comparing again in between, they close the gap.
    let gaps = ans
    for (let round = 0; round < 3 && gaps.onlyLeft.length > 0; round++) {
      await applyManifest(gaps.onlyLeft[0].lacks.fixes[0].yaml)
      gaps = await compared('alpha', 'namespace=cmp&with=beta')
    }
    expect(gaps.onlyLeft).toEqual([])
    expect(gaps.onlyRight).toEqual([])
  })

  it('of an agent and a unit grants the unit what it lacks, and turns on what it turns off', async () => {
    const ans = await compared('alpha', 'namespace=cmp&with=bare&withKind=Unit')
    expect(ans.right).toMatchObject({ kind: 'Unit', name: 'bare' })
    expect(brief(ans.onlyLeft)).toEqual(['acme.lookup grant | absent | grant', 'acme.refund grant | absent | grant', 'billing.charge grant | absent | grant'])
    expect(ans.onlyLeft[0].lacks.reason).toContain('no source of unit cmp/bare offers acme.lookup')
    const draft = parse(ans.onlyLeft[2].lacks.fixes[0].yaml)
    expect(draft).toMatchObject({ kind: 'Unit', metadata: { name: 'bare', namespace: 'cmp' }, spec: { grants: ['billing.charge'] } })

    await applyManifest(yaml`
apiVersion: toolroom.dev/v1alpha1
kind: Unit
metadata: { name: bare, namespace: cmp }
spec: { grants: [acme.lookup, billing.charge], toggles: { billing.charge: false } }
`)
    const toggled = await compared('alpha', 'namespace=cmp&with=bare&withKind=Unit')
    expect(brief(toggled.onlyLeft)).toEqual(['acme.refund grant | absent | grant', 'billing.charge grant | disabled | toggle'])
    expect(toggled.onlyLeft[1].lacks.reason).toContain('billing.charge is turned off for unit cmp/bare')
  })

  it('refuses an unknown other side and a missing one with a problem naming it', async () => {
    const missing = await compare('alpha', 'namespace=cmp')
    expect(missing.status).toBe(400)
    expect(JSON.stringify(missing.json.errors)).toContain('with')
    const unknown = await compare('alpha', 'namespace=cmp&with=nobody')
    expect(unknown.status).toBe(404)
    expect(unknown.json.detail).toContain('nobody')
  })
})
