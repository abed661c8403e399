'use client'
// "Agents with this tool" on a Tool's page, as connectors show what they are bound to: every agent the
// Tool reaches (by a grant or a connector, on itself or a unit above it) and what its effective set
// makes of it there: enabled, disabled by a toggle, denied by safety, or shadowed by another source.
import { useState } from 'react'
import { Badge, type BadgeTone } from '@/components/ui/badge'
import { Card } from '@/components/ui/card'
import { IntentLink } from '@/components/ui/intent-link'
import { PagedList } from '@/components/ui/paged-list'
import type { ToolState } from '@/lib/effective-tools/types'
import { useCursorPages } from '@/lib/client/cursor-pages'
import { listAgentsWithTool } from '@/lib/client/explain-api'
import { resourceHref } from '@/lib/client/links'
import { queryKeys } from '@/lib/client/query-keys'

const STATES: Array<{ state: ToolState; tone: BadgeTone; note: string }> = [
  { state: 'enabled', tone: 'green', note: 'can call it' },
  { state: 'disabled', tone: 'gray', note: 'turned off by a toggle' },
  { state: 'denied', tone: 'red', note: 'kept out by safety rules' },
  { state: 'shadowed', tone: 'amber', note: 'another source of the name wins' },
]
const TONE = Object.fromEntries(STATES.map((s) => [s.state, s.tone])) as Record<ToolState, BadgeTone>

export function AgentsWithTool({ toolId, namespace }: { toolId: string; namespace: string }) {
  const [state, setState] = useState<ToolState | undefined>(undefined)
  const params = { state, limit: 50 }
  const list = useCursorPages({
    queryKey: queryKeys.agentsWithTool(toolId, namespace, params),
    fetchPage: (cursor) => listAgentsWithTool(toolId, namespace, params, cursor),
  })
  const counts = list.firstPage?.counts
  const total = counts ? counts.enabled + counts.disabled + counts.denied + counts.shadowed : null
  return (
    <Card
      id="agents-with-tool"
      title={<span>Agents with this tool {total !== null && <span className="font-normal text-slate-500">{total}</span>}</span>}
      description="Agents this Tool reaches by a grant or a connector, on themselves or a unit above them, and its state in each one's effective set."
      bodyClassName=""
    >
      {counts && total !== null && total > 0 && (
        <div role="group" aria-label="Show agents" className="flex flex-wrap gap-1 border-b border-slate-200 px-4 py-2">
          <button
            type="button"
            aria-pressed={state === undefined}
            onClick={() => setState(undefined)}
            className={`h-7 rounded-md border px-2 text-xs font-medium ${state === undefined ? 'border-slate-800 bg-slate-800 text-white' : 'border-slate-300 bg-white text-slate-700 hover:bg-slate-100'}`}
          >
            All {total}
          </button>
          {STATES.filter((s) => counts[s.state] > 0).map((s) => (
            <button
              key={s.state}
              type="button"
              aria-pressed={state === s.state}
              title={s.note}
              onClick={() => setState(s.state)}
              className={`h-7 rounded-md border px-2 text-xs font-medium ${state === s.state ? 'border-slate-800 bg-slate-800 text-white' : 'border-slate-300 bg-white text-slate-700 hover:bg-slate-100'}`}
            >
              {s.state} {counts[s.state]}
            </button>
          ))}
        </div>
      )}
      <PagedList
        list={list}
        loadingLabel="Working out which agents have it…"
        empty={<p className="px-4 py-4 text-sm text-slate-500">No agent has this tool: nothing grants it and no bound connector lists it.</p>}
        footerWhenComplete={false}
      >
        {(items) => (
          <ul className="divide-y divide-slate-100">
            {items.map((item) => (
              <li
                key={item.agent.id}
                className="flex flex-wrap items-baseline gap-x-3 gap-y-1 px-4 py-2 text-sm"
                data-testid="agent-with-tool"
                data-state={item.state}
              >
                <IntentLink href={resourceHref('Agent', item.agent.id)} className="min-w-0 break-all font-medium text-sky-800 hover:underline">
                  {item.agent.name}
                </IntentLink>
                <span className="font-mono text-xs text-slate-600">{item.agent.namespace}</span>
                <Badge tone={TONE[item.state]}>{item.state}</Badge>
                <span className="text-xs text-slate-600">
                  via <span className="font-mono">{item.provenance}</span>
                  {item.inheritedFromUnit && (
                    <>
                      {' '}
                      from unit{' '}
                      <IntentLink href={resourceHref('Unit', item.inheritedFromUnit, item.agent.namespace)} className="text-sky-800 hover:underline">
                        {item.inheritedFromUnit}
                      </IntentLink>
                    </>
                  )}
                </span>
                {item.reason && item.state !== 'enabled' && <span className="basis-full break-words text-xs text-slate-600">{item.reason}</span>}
              </li>
            ))}
          </ul>
        )}
      </PagedList>
    </Card>
  )
}
