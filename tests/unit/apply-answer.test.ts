// The Apply page's reading of an answer, against the answer's contract (applyResultSchema): every
// sample is first checked to be a valid answer, so the rendering is tested on what the API may send,
// not on what this test imagines; the results component is rendered (React's server renderer) with
// it. Also the editor's marks made of located problems, and drafts from links.
import { Text } from '@codemirror/state'
import { createElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { ApplyResults } from '@/components/apply/apply-results'
import { applyResultSchema } from '@/lib/api/schemas'
import { type ApplyAnswer, changeKind, changesAsDocuments, countActions, describeEntry, impactRows } from '@/lib/client/apply-answer'
import { diagnosticsOf } from '@/lib/client/manifest-diagnostics'
import { applyDraftHref, applyDraftOf, MAX_DRAFT_CHARS } from '@/lib/manifests/apply-draft'

const grant = (state: 'enabled' | 'denied', requiresApproval = false) => ({ state, requiresApproval, tier: 'grant' as const, source: 'grant' })

const DRY_RUN: ApplyAnswer = applyResultSchema.parse({
  dryRun: true,
  results: [
    {
      index: 0,
      kind: 'Tool',
      apiVersion: 'joch.dev/v1alpha1',
      namespace: 'support',
      name: 'zendesk.create_ticket',
      id: '8c6f2a3e-0b1d-4c5e-9f00-1a2b3c4d5e6f',
      action: 'updated',
      changes: [
        { path: 'spec.description', before: 'Create a ticket.', after: 'Create a Zendesk ticket.' },
        { path: 'spec.safety.allowedAgents[1]', after: 'support/support-escalation' },
        { path: 'spec.sideEffects.requiresApproval', before: false },
      ],
    },
    { index: 1, kind: 'Agent', apiVersion: 'toolroom.dev/v1alpha1', namespace: 'support', name: 'triage', id: null, action: 'created', changes: [] },
    {
      index: 2,
      kind: 'Unit',
      apiVersion: 'toolroom.dev/v1alpha1',
      namespace: 'support',
      name: 'team',
      id: '9c6f2a3e-0b1d-4c5e-9f00-1a2b3c4d5e6f',
      action: 'unchanged',
      changes: [],
    },
  ],
  summary: { created: 1, updated: 1, unchanged: 1, deleted: 0 },
  impact: {
    agentsChecked: 12,
    agentsResolved: 5,
    agentsAffected: 2,
    truncated: false,
    agents: [
      {
        id: 'a1',
        namespace: 'support',
        name: 'support-escalation',
        changes: [
          {
            tool: 'zendesk.create_ticket',
            change: 'gained',
            after: grant('enabled'),
            reason: 'support/support-escalation is now in spec.safety.allowedAgents',
          },
        ],
      },
      {
        id: 'a2',
        namespace: 'support',
        name: 'support-triage',
        changes: [
          {
            tool: 'zendesk.create_ticket',
            change: 'changed',
            before: grant('enabled', true),
            after: grant('enabled'),
            reason: "spec.sideEffects.requiresApproval was removed, so the level's policy decides",
          },
          {
            tool: 'zendesk.delete_ticket',
            change: 'lost',
            before: { ...grant('enabled'), tier: 'connector' as const, source: 'connector:zendesk' },
            reason: 'the grant was removed',
          },
        ],
      },
    ],
  },
})

describe('reading an Apply answer', () => {
  it('counts the documents by action, deletions (from prune) included', () => {
    expect(countActions(DRY_RUN.results)).toEqual({ created: 1, updated: 1, unchanged: 1, deleted: 0 })
    expect(countActions([{ ...DRY_RUN.results[0], action: 'deleted', changes: [] }])).toMatchObject({ deleted: 1 })
  })

  it("turns field changes into before and after documents for the audit log's diff view", () => {
    const changes = DRY_RUN.results[0].changes!
    expect(changesAsDocuments(changes)).toEqual({
      before: { 'spec.description': 'Create a ticket.', 'spec.sideEffects.requiresApproval': false },
      after: { 'spec.description': 'Create a Zendesk ticket.', 'spec.safety.allowedAgents[1]': 'support/support-escalation' },
    })
    expect(changes.map(changeKind)).toEqual(['changed', 'added', 'removed'])
    // A value that is falsy is still a value, not an absence.
    expect(changesAsDocuments([{ path: 'spec.x', before: 0, after: null }])).toEqual({ before: { 'spec.x': 0 }, after: { 'spec.x': null } })
  })

  it('lists the impact on agents one row per agent and tool, saying what each entry was and becomes', () => {
    expect(impactRows(DRY_RUN.impact!)).toEqual([
      {
        agent: { id: 'a1', namespace: 'support', name: 'support-escalation' },
        tool: 'zendesk.create_ticket',
        change: 'gained',
        before: 'not in the set',
        after: 'enabled, grant tier',
        reason: 'support/support-escalation is now in spec.safety.allowedAgents',
      },
      {
        agent: { id: 'a2', namespace: 'support', name: 'support-triage' },
        tool: 'zendesk.create_ticket',
        change: 'changed',
        before: 'enabled, grant tier, needs approval',
        after: 'enabled, grant tier',
        reason: "spec.sideEffects.requiresApproval was removed, so the level's policy decides",
      },
      {
        agent: { id: 'a2', namespace: 'support', name: 'support-triage' },
        tool: 'zendesk.delete_ticket',
        change: 'lost',
        before: 'enabled, connector tier (connector:zendesk)',
        after: 'not in the set',
        reason: 'the grant was removed',
      },
    ])
    expect(describeEntry(undefined)).toBe('not in the set')
  })

  it('holds the contract: what the schema refuses is not an answer', () => {
    const bad = (patch: (a: Record<string, unknown>) => void) => {
      const copy = structuredClone(DRY_RUN) as unknown as Record<string, unknown>
      patch(copy)
      return applyResultSchema.safeParse(copy).success
    }
    expect(bad(() => {})).toBe(true)
    expect(bad((a) => ((a.results as Array<Record<string, unknown>>)[0].action = 'pruned'))).toBe(false)
    expect(bad((a) => delete (a.results as Array<Record<string, unknown>>)[0].changes)).toBe(false)
    expect(bad((a) => ((a.impact as { agents: Array<{ changes: Array<Record<string, unknown>> }> }).agents[0].changes[0].change = 'added'))).toBe(false)
    expect(bad((a) => ((a.impact as { agents: Array<{ changes: Array<{ after: Record<string, unknown> }> }> }).agents[0].changes[0].after.state = 'on'))).toBe(
      false,
    )
    expect(bad((a) => delete a.impact)).toBe(true)
  })
})

describe("the dry run's results as the page shows them", () => {
  const html = renderToStaticMarkup(createElement(ApplyResults, { answer: DRY_RUN }))
  const text = html
    .replace(/<[^>]+>/g, ' ')
    .replace(/&quot;/g, '"')
    .replace(/\s+/g, ' ')

  it("says what each document would become, and opens the updated one on its diff in the audit log's diff view", () => {
    expect(text).toContain('Valid. Dry run: nothing was written.')
    expect(text).toContain('3 documents: 1 would be created, 1 would be updated, 1 unchanged.')
    expect(html.match(/data-testid="apply-diff"/g)).toHaveLength(1)
    expect(text).toContain('1 changed, 1 added, 1 removed')
    // The diff lists each changed field, as YAML, with its value before (−) and after (+).
    expect(text).toMatch(/− spec.description: Create a ticket\./)
    expect(text).toMatch(/\+ spec.description: Create a Zendesk ticket\./)
    expect(text).toMatch(/\+ spec.safety.allowedAgents\[1\]: support\/support-escalation/)
    expect(text).toMatch(/− spec.sideEffects.requiresApproval: false/)
  })

  it('lists the impact on agents, each agent linked, each change with its reason', () => {
    expect(text).toContain('2 of 12 agents checked would see their effective tool set change.')
    expect(html.match(/data-testid="apply-impact-row"/g)).toHaveLength(3)
    expect(html).toContain('href="/agents/support-escalation?namespace=support"')
    expect(html).toMatch(/data-change="lost"/)
    expect(text).toContain('enabled, grant tier, needs approval → enabled, grant tier')
    expect(text).toContain('the grant was removed')
  })

  it('shows no changes column and no impact for an answer without them', () => {
    const plain = renderToStaticMarkup(
      createElement(ApplyResults, { answer: { ...DRY_RUN, impact: undefined, results: DRY_RUN.results.map(({ changes: _c, ...r }) => r) } }),
    )
    expect(plain).not.toContain('Changes</th>')
    expect(plain).not.toContain('apply-impact')
    expect(plain).not.toContain('apply-diff')
  })
})

describe('marks in the editor', () => {
  const doc = Text.of(['apiVersion: toolroom.dev/v1alpha1', 'kind: Tool', 'spec:', '  description: 42', '  grants: ["a b", x]', ''])

  it('marks from the position to the end of the value or key there', () => {
    const [description, quoted, missing] = diagnosticsOf(doc, [
      { document: 0, kind: 'Tool', field: 'spec.description', rule: 'type', message: 'expected string', line: 4, column: 16 },
      { document: 0, field: 'spec.grants[0]', rule: 'format', message: 'bad id', line: 5, column: 12 },
      { document: 0, field: 'spec.endpoint', rule: 'required', message: 'is required', line: 3, column: 1 },
    ])
    expect(doc.sliceString(description.from, description.to)).toBe('42')
    expect(description.message).toBe('document 0 (Tool), spec.description: expected string (type)')
    expect(doc.sliceString(quoted.from, quoted.to)).toBe('"a b"')
    expect(doc.sliceString(missing.from, missing.to)).toBe('spec:')
  })

  it('keeps positions from another text inside this one', () => {
    for (const [line, column] of [
      [0, 0],
      [99, 1],
      [2, 999],
      [6, 1],
    ]) {
      const [d] = diagnosticsOf(doc, [{ field: 'x', rule: 'r', message: 'm', line, column }])
      expect(d.from).toBeGreaterThanOrEqual(0)
      expect(d.to).toBeLessThanOrEqual(doc.length)
      expect(d.from).toBeLessThanOrEqual(d.to)
    }
  })
})

describe('drafts from links', () => {
  it('prefills what a link carries, round trip, and refuses what no link should carry', () => {
    const manifest = 'kind: Agent\nmetadata: { name: a }\nspec: { grants: [x.y] }\n'
    const href = applyDraftHref(manifest)
    expect(applyDraftOf(new URL(href, 'http://x').searchParams.get('draft') ?? undefined)).toBe(manifest)
    expect(applyDraftOf(undefined)).toBeUndefined()
    expect(applyDraftOf('x'.repeat(MAX_DRAFT_CHARS + 1))).toBeUndefined()
    expect(applyDraftOf('a\u0000b')).toBe('ab')
  })
})
