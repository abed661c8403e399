'use client'
// "Compare with…": this agent's effective tools beside another agent's or a unit's. For each tool only
// one side can call: where it comes from, why the other side cannot (an agent's reason is the
// explainer's own) and the fix, as a draft for Apply. Nothing is called or recorded.
import { useMutation } from '@tanstack/react-query'
import { useEffect, useRef, useState } from 'react'
import { FixLink } from '@/components/explain/fix-link'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Card } from '@/components/ui/card'
import { CONTROL, Field, Form, TextInput } from '@/components/ui/form'
import { ErrorState } from '@/components/ui/states'
import { type Comparison, compareEffectiveTools } from '@/lib/client/explain-api'
import { focusAnswer } from '@/lib/client/focus-answer'

type Subject = Comparison['left']
type OneSided = Comparison['onlyLeft'][number]
type Entry = OneSided['has']

const STATE_TONE = { absent: 'gray', disabled: 'amber', denied: 'red', shadowed: 'gray' } as const

const subjectName = (s: Subject) => `${s.kind === 'Unit' ? 'unit ' : ''}${s.namespace}/${s.name}`
const origin = (e: Entry) => `${e.provenance}${e.inheritedFromUnit ? ` (from unit ${e.inheritedFromUnit})` : ''}${e.requiresApproval ? ', needs approval' : ''}`

function OneSide({ title, lacking, items, testId }: { title: string; lacking: string; items: OneSided[]; testId: string }) {
  return (
    <section className="min-w-0 rounded-md border border-slate-200" data-testid={testId} aria-label={title}>
      <h3 className="border-b border-slate-200 bg-slate-50 px-3 py-2 text-sm font-semibold text-slate-900 [overflow-wrap:anywhere]">
        {title} <span className="font-normal text-slate-600">({items.length})</span>
      </h3>
      {items.length === 0 ? (
        <p className="px-3 py-2 text-xs text-slate-600">Nothing: {lacking} can call all of these too.</p>
      ) : (
        <ul className="divide-y divide-slate-100">
          {items.map((d) => (
            <li key={d.tool} className="space-y-1 px-3 py-2 text-xs" data-testid="compare-row" data-tool={d.tool}>
              <div className="flex flex-wrap items-baseline gap-2">
                <span className="font-mono text-sm font-medium text-slate-900 [overflow-wrap:anywhere]">{d.tool}</span>
                <span className="min-w-0 text-slate-600 [overflow-wrap:anywhere]">{origin(d.has)}</span>
              </div>
              <p className="text-slate-700 [overflow-wrap:anywhere]">
                <Badge tone={STATE_TONE[d.lacks.state]}>{d.lacks.state}</Badge> <span className="sr-only">Why {lacking} cannot: </span>
                {d.lacks.reason}
              </p>
              {d.lacks.fixes.map((fix, i) => (
                <p key={i}>
                  <FixLink fix={fix} compact />
                </p>
              ))}
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}

export function ComparePanel({ agentId, namespace, subjectNamespace }: { agentId: string; namespace?: string; subjectNamespace: string }) {
  const [kind, setKind] = useState<'Agent' | 'Unit'>('Agent')
  const [other, setOther] = useState('')
  const answer = useRef<HTMLDivElement>(null)
  const compare = useMutation({
    mutationFn: (to: { kind: 'Agent' | 'Unit'; ref: string }) =>
      compareEffectiveTools(agentId, namespace, { kind: to.kind, ref: to.ref.includes('/') ? to.ref : `${subjectNamespace}/${to.ref}` }),
  })
  const data = compare.data
  // The answer is what was asked for: focus moves to it once it is on screen, so a screen reader reads it next.
  useEffect(() => {
    if (data) focusAnswer(answer.current)
  }, [data])
  return (
    <Card
      id="compare"
      title="Compare with another agent or unit"
      description="What only one side can call, why the other cannot, and the change that would let it: nothing is called or recorded."
      className="scroll-mt-4"
    >
      <div className="space-y-4">
        <Form className="flex flex-wrap items-end gap-3" onSubmit={() => other.trim() && compare.mutate({ kind, ref: other.trim() })}>
          <Field label="Compare with">
            <select value={kind} onChange={(e) => setKind(e.target.value as 'Agent' | 'Unit')} className={`${CONTROL} min-w-28`}>
              <option value="Agent">Agent</option>
              <option value="Unit">Unit</option>
            </select>
          </Field>
          <Field label={kind === 'Agent' ? 'Agent (namespace/name)' : 'Unit (namespace/name)'}>
            <TextInput
              monospace
              value={other}
              onChange={(e) => setOther(e.target.value)}
              placeholder={`${subjectNamespace}/…`}
              maxLength={320}
              autoComplete="off"
              spellCheck={false}
              className="w-64 max-w-full"
              required
            />
          </Field>
          <Button type="submit" variant="primary" disabled={!other.trim() || compare.isPending}>
            {compare.isPending ? 'Comparing…' : 'Compare'}
          </Button>
        </Form>
        {compare.error ? (
          <ErrorState error={compare.error} title="Could not compare" />
        ) : (
          data && (
            <div ref={answer} tabIndex={-1} className="space-y-3 outline-none" data-testid="compare-result" aria-live="polite">
              <p className="text-sm text-slate-800">
                <span className="font-semibold">{subjectName(data.left)}</span> and <span className="font-semibold">{subjectName(data.right)}</span>:{' '}
                {data.onlyLeft.length + data.onlyRight.length + data.differing.length === 0
                  ? `no differences (${data.same} tools both can call the same way).`
                  : `${data.onlyLeft.length} only the first can call, ${data.onlyRight.length} only the second, ${data.differing.length} both call differently, ${data.same} the same.`}
              </p>
              <div className="grid gap-3 lg:grid-cols-2">
                <OneSide title={`Only ${subjectName(data.left)} can call`} lacking={subjectName(data.right)} items={data.onlyLeft} testId="compare-only-left" />
                <OneSide
                  title={`Only ${subjectName(data.right)} can call`}
                  lacking={subjectName(data.left)}
                  items={data.onlyRight}
                  testId="compare-only-right"
                />
              </div>
              {data.differing.length > 0 && (
                <section className="rounded-md border border-slate-200" aria-label="Both can call, differently">
                  <h3 className="border-b border-slate-200 bg-slate-50 px-3 py-2 text-sm font-semibold text-slate-900">Both can call, differently</h3>
                  <ul className="divide-y divide-slate-100">
                    {data.differing.map((d) => (
                      <li key={d.tool} className="px-3 py-2 text-xs text-slate-700 [overflow-wrap:anywhere]">
                        <span className="font-mono font-medium text-slate-900">{d.tool}</span>: {origin(d.left)} vs {origin(d.right)}
                      </li>
                    ))}
                  </ul>
                </section>
              )}
            </div>
          )
        )}
      </div>
    </Card>
  )
}
