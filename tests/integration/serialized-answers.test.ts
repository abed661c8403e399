// The agent and unit answers are assembled from entries serialized once and shared across answers
// (lib/effective-tools/serialize-effective-tools.ts); over a varied fleet they must stay byte for byte
// the JSON.stringify of the answers built from objects, through the real reader, policies and
// statistics, in every shape (`GET /api/v1/{agents|units}/{id}`, `…/effective-tools`, with
// `include=excluded`), before and after a change that reaches everyone. The reference resolves each
// subject from its own whole input (loadResolverInput), the answers from a unit chain's candidates
// shared by every subject below it (loadSharedResolverInput), with rows read in batches.
import { beforeAll, describe, expect, it } from 'vitest'
import { prisma } from '@/lib/db'
import { attachStats } from '@/lib/effective-tools/attach-stats'
import { keptEntryPieces } from '@/lib/effective-tools/get-effective-tools'
import { loadResolverInput } from '@/lib/effective-tools/load-resolver-input'
import { resolveEffectiveTools } from '@/lib/effective-tools/resolve-effective-tools'
import { policiesOnTools } from '@/lib/policy/policy-set'
import { toolStatsSnapshot } from '@/lib/stats/tool-stats-cache'
import { type AnswerShape, answerValue, effectiveSetAnswer, subjectAnswer } from '@/lib/effective-tools/subject-answers'
import { noteRegistryChange, registryEpoch } from '@/lib/registry/registry-changes'
import { getRow } from '@/lib/resources/resource-store'
import { until } from '../support/until'
import { applyManifest, resetDatabase, storeDiscoveredTools, yaml } from './helpers'

const tool = (name: string, extra = '', namespace = 'ops') => yaml`
apiVersion: toolroom.dev/v1alpha1
kind: Tool
metadata: { name: ${name}, namespace: ${namespace} }
spec:
  type: function
  description: ${name} does its job — «déjà vu»
  inputSchema: { type: object, properties: { id: { type: string } } }
${extra}`

const agent = (name: string, unit: string, extra = '') => yaml`
apiVersion: toolroom.dev/v1alpha1
kind: Agent
metadata: { name: ${name}, namespace: ops, labels: { team: ${unit} } }
spec:
  unit: ${unit}
${extra}`

const manifest = [
  yaml`
apiVersion: toolroom.dev/v1alpha1
kind: SideEffectPolicy
metadata: { name: financial }
spec: { level: financial, requiresApproval: true, rateLimit: { callsPerMinute: 5 } }
---
apiVersion: toolroom.dev/v1alpha1
kind: Connector
metadata: { name: crm, namespace: ops }
spec: { tools: [crm.find, crm.update] }
---
apiVersion: toolroom.dev/v1alpha1
kind: Connector
metadata: { name: git, namespace: ops }
spec: { languageTool: git-mcp }
---
apiVersion: toolroom.dev/v1alpha1
kind: LanguageTool
metadata: { name: git-mcp, namespace: ops }
spec: { endpoint: "http://127.0.0.1:4801/mcp" }
---
apiVersion: toolroom.dev/v1alpha1
kind: LanguageTool
metadata: { name: docs, namespace: ops }
spec: { endpoint: "http://127.0.0.1:4802/mcp" }
---
apiVersion: toolroom.dev/v1alpha1
kind: Policy
metadata: { name: careful-refunds, namespace: ops }
spec:
  selector: { tools: [pay.refund], agents: { matchLabels: { team: billing } } }
  rules:
    - when: args.id == "big"
      effect: require_approval
      reason: Large refunds need a second person
---
apiVersion: toolroom.dev/v1alpha1
kind: Policy
metadata: { name: no-crm-writes, namespace: ops }
spec:
  selector: { tools: ["crm.*"] }
  rules:
    - when: "true"
      effect: deny
      reason: read only this week
---
apiVersion: toolroom.dev/v1alpha1
kind: Unit
metadata: { name: org, namespace: ops }
spec:
  connectors: [crm]
  grants: [pay.refund, util.echo]
  toggles: { crm.update: false }
---
apiVersion: toolroom.dev/v1alpha1
kind: Unit
metadata: { name: billing, namespace: ops }
spec:
  parent: org
  connectors: [git, crm]
  grants: [pay.refund, util.clock, nope.missing]
  toggles: { util.echo: false }
---
apiVersion: toolroom.dev/v1alpha1
kind: Unit
metadata: { name: support, namespace: ops }
spec:
  parent: org
  toggles: { crm.update: true }
`,
  agent('bill-1', 'billing', '  languageTools: [docs]\n  grants: [util.clock]'),
  agent('bill-2', 'billing', '  toggles: { util.clock: false, crm.find: false }'),
  agent('bill-3', 'billing', '  connectors: [crm]\n  grants: [crm.find]'),
  agent('help-1', 'support', '  languageTools: [docs, gone]'),
  agent('help-2', 'support', '  grants: [pay.refund]\n  toggles: { crm.update: false }'),
  agent('orphan', 'nowhere'),
  tool('crm.find', '  sideEffects: { level: read_only }'),
  tool('crm.update', '  sideEffects: { level: external_write, requiresApproval: false }\n  safety: { rateLimit: { callsPerDay: 100 } }'),
  tool('pay.refund', '  sideEffects: { level: financial }\n  safety: { allowedAgents: [bill-1, bill-3, help-2] }'),
  tool('util.echo', '  sideEffects: { level: read_only, idempotent: true }'),
  tool('util.clock', '  safety: { deniedNamespaces: [quarantine] }'),
].join('\n---\n')

const SHAPES: AnswerShape[] = ['resource', 'tools', 'excluded']

async function answerBytes(kind: 'Agent' | 'Unit', id: string, shape: AnswerShape): Promise<string> {
  const res = shape === 'resource' ? await subjectAnswer(kind, id, undefined) : await effectiveSetAnswer(kind, id, undefined, shape === 'excluded')
  return res.text()
}

/** The answer as it was made before entries and unit chains were shared: the subject's own whole input, objects, then one JSON.stringify. */
async function referenceBytes(kind: 'Agent' | 'Unit', id: string, shape: AnswerShape): Promise<string> {
  const row = await getRow(kind, id, undefined)
  const set = resolveEffectiveTools(await loadResolverInput(kind, row))
  const stats = await toolStatsSnapshot()
  for (const entry of [...set.tools, ...set.excluded]) attachStats(entry, stats)
  if (kind === 'Agent') await policiesOnTools(row, set.tools)
  return JSON.stringify(answerValue(kind, row, set, shape))
}

let subjects: Array<{ kind: 'Agent' | 'Unit'; id: string; name: string }>

beforeAll(async () => {
  await resetDatabase()
  await applyManifest(manifest)
  await storeDiscoveredTools('ops', 'git-mcp', [
    { name: 'create-issue', description: 'Open an issue', inputSchema: { type: 'object' }, annotations: { readOnlyHint: false, openWorldHint: true } },
  ])
  await storeDiscoveredTools('ops', 'docs', [
    { name: 'searchDocs', description: 'Search the docs', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
  ])
  const bill1 = await prisma.agent.findFirstOrThrow({ where: { name: 'bill-1' } })
  await prisma.agent.update({
    where: { id: bill1.id },
    data: {
      imageTools: [
        { name: 'util.clock', description: 'shadowed by the grant', inputSchema: { type: 'object' } },
        { name: 'img.snap', description: 'Takes a snapshot ✓', inputSchema: { type: 'object' } },
        // squats a connector's reserved namespace: denied, listed with the excluded entries
        { name: 'crm.export', description: 'Not the connector', inputSchema: { type: 'object' } },
      ],
    },
  })
  const agents = await prisma.agent.findMany({ select: { id: true, name: true }, orderBy: { name: 'asc' } })
  const units = await prisma.unit.findMany({ select: { id: true, name: true }, orderBy: { name: 'asc' } })
  subjects = [...agents.map((a) => ({ kind: 'Agent' as const, ...a })), ...units.map((u) => ({ kind: 'Unit' as const, ...u }))]
  // Pieces are kept only while the registry's change listener is up (it starts with the first answer).
  await answerBytes('Agent', agents[0].id, 'resource')
  await until('the registry change listener', () => registryEpoch() !== null)
})

describe('answers assembled from shared, serialized entries', () => {
  it('are the bytes of JSON.stringify of the answers built from objects, for every subject and shape', async () => {
    for (let round = 0; round < 2; round++) {
      // A change that reaches everyone: every answer is made again, from pieces kept afresh.
      noteRegistryChange()
      for (const shape of SHAPES)
        for (const s of subjects) expect(await answerBytes(s.kind, s.id, shape), `${s.kind} ${s.name} ${shape}`).toBe(await referenceBytes(s.kind, s.id, shape))
      // …and they were made from kept pieces, not each serialized alone.
      expect(keptEntryPieces()?.tools).toBeGreaterThan(5)
    }
  })

  it('answers each of many concurrent reads (rows read in batches) with its own answer: by id, by name, missing, unreadable', async () => {
    noteRegistryChange()
    const asks = [
      ...subjects.map((s) => ({ kind: s.kind, idOrName: s.id, namespace: undefined as string | undefined })),
      ...subjects.map((s) => ({ kind: s.kind, idOrName: s.name, namespace: 'ops' })),
      { kind: 'Agent' as const, idOrName: 'bill-1', namespace: undefined },
      { kind: 'Agent' as const, idOrName: '00000000-0000-4000-8000-000000000000', namespace: undefined },
      { kind: 'Agent' as const, idOrName: 'bill\u0000-1', namespace: 'ops' },
    ]
    const answers = await Promise.allSettled(asks.map(async (a) => (await subjectAnswer(a.kind, a.idOrName, a.namespace)).text()))
    for (const [i, s] of subjects.entries()) {
      const expected = await referenceBytes(s.kind, s.id, 'resource')
      expect(answers[i], `${s.kind} ${s.name} by id`).toEqual({ status: 'fulfilled', value: expected })
      expect(answers[subjects.length + i], `${s.kind} ${s.name} by name`).toEqual({ status: 'fulfilled', value: expected })
    }
    // Not in "default": each of these fails alone, as getRow does, and fails no other read.
    for (const failed of answers.slice(2 * subjects.length)) expect(failed.status).toBe('rejected')
    expect(String((answers.at(-2) as PromiseRejectedResult).reason)).toMatch(/not found/i)
  })

  it('covers what the fleet is meant to vary: inheritance, toggles, exclusions, policies, unresolved references', async () => {
    const all = await Promise.all(subjects.map(async (s) => JSON.parse(await answerBytes(s.kind, s.id, 'excluded'))))
    const entries = all.flatMap((a) => a.effectiveTools)
    const excluded = all.flatMap((a) => a.excluded)
    expect(entries.some((e) => e.inheritedFromUnit === 'org')).toBe(true)
    expect(entries.some((e) => e.state === 'disabled')).toBe(true)
    expect(entries.some((e) => e.state === 'enabled' && e.reason?.startsWith('enabled by a toggle'))).toBe(true)
    expect(entries.some((e) => e.policies?.includes('ops/careful-refunds'))).toBe(true)
    expect(new Set(excluded.map((e) => e.state))).toEqual(new Set(['shadowed', 'denied']))
    expect(all.some((a) => a.unresolved.length > 0)).toBe(true)
  })
})
