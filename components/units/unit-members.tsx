'use client'
import { IntentLink } from '@/components/ui/intent-link'
import { Card } from '@/components/ui/card'
import { PagedList } from '@/components/ui/paged-list'
import type { AgentSpec, UnitSpec } from '@/lib/manifests/specs/fleet'
import type { Resource } from '@/lib/client/api'
import { shortImage } from '@/lib/client/format'
import { useResourceList } from '@/lib/client/hooks'
import { resourceHref } from '@/lib/client/links'

function MemberList<S extends AgentSpec | UnitSpec>({
  title,
  plural,
  params,
  empty,
}: {
  title: string
  plural: 'agents' | 'units'
  params: Record<string, string>
  empty: string
}) {
  const list = useResourceList<Resource<S>>(plural, params, 100)
  return (
    <Card
      title={
        <span>
          {title}{' '}
          {list.data && (
            <span className="font-normal text-slate-500">
              {list.items.length}
              {list.hasNextPage ? '+' : ''}
            </span>
          )}
        </span>
      }
      bodyClassName=""
    >
      <PagedList list={list} empty={<p className="px-4 py-3 text-sm text-slate-500">{empty}</p>} footerWhenComplete={false}>
        {(members) => (
          <ul className="divide-y divide-slate-100">
            {members.map((r) => (
              <li key={r.id} className="flex items-baseline justify-between gap-3 px-4 py-2 text-sm">
                <IntentLink href={resourceHref(plural === 'agents' ? 'Agent' : 'Unit', r.id)} className="font-medium text-slate-900 hover:underline">
                  {r.metadata.name}
                </IntentLink>
                {(r.spec.displayName || r.spec.image) && (
                  <span className="truncate text-xs text-slate-500">{r.spec.displayName ?? <span className="font-mono">{shortImage(r.spec.image)}</span>}</span>
                )}
              </li>
            ))}
          </ul>
        )}
      </PagedList>
    </Card>
  )
}

export function UnitMembers({ name, namespace }: { name: string; namespace: string }) {
  return (
    <div className="grid gap-4 lg:grid-cols-2">
      <MemberList<UnitSpec> title="Sub-units" plural="units" params={{ parent: name, namespace }} empty="No sub-units." />
      <MemberList<AgentSpec> title="Agents" plural="agents" params={{ unit: name, namespace }} empty="No agents in this unit." />
    </div>
  )
}
