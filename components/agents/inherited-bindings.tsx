'use client'
// An agent's connectors, grants and toggles as they reach it: its own, then what each unit above it
// adds ("inherited from unit …"), nearest unit first, so "none" only means none anywhere.
import { ConnectorLinks, GrantLinks, Toggles } from '@/components/resources/bindings'
import type { UnitSpec } from '@/lib/manifests/specs/fleet'
import type { Resource } from '@/lib/client/api'
import { useAllResources } from '@/lib/client/hooks'
import { IntentLink } from '@/components/ui/intent-link'
import { resourceHref } from '@/lib/client/links'

type Field = 'connectors' | 'grants' | 'toggles'
interface Bindings {
  connectors?: string[]
  grants?: string[]
  toggles?: Record<string, boolean>
}

const isSet = (b: Bindings, field: Field) => (field === 'toggles' ? Object.keys(b.toggles ?? {}).length > 0 : (b[field]?.length ?? 0) > 0)

/** The units above the agent, nearest first (stops at a missing unit or a cycle, as the resolver does). */
function useUnitChain(namespace: string, first: string | undefined) {
  const units = useAllResources<Resource<UnitSpec>>('units', { namespace }, Boolean(first))
  const byName = new Map((units.data ?? []).map((u) => [u.metadata.name, u.spec]))
  const chain: Array<{ name: string; spec: UnitSpec }> = []
  const seen = new Set<string>()
  for (let name = first; name && !seen.has(name) && byName.has(name); name = byName.get(name)!.parent) {
    seen.add(name)
    chain.push({ name, spec: byName.get(name)! })
  }
  return { chain, pending: Boolean(first) && units.isPending }
}

function Values({ field, bindings, namespace }: { field: Field; bindings: Bindings; namespace: string }) {
  if (field === 'connectors') return <ConnectorLinks slugs={bindings.connectors} />
  if (field === 'grants') return <GrantLinks grants={bindings.grants} namespace={namespace} />
  return <Toggles toggles={bindings.toggles} />
}

export function InheritedBindings({ field, own, unit, namespace }: { field: Field; own: Bindings; unit: string | undefined; namespace: string }) {
  const { chain, pending } = useUnitChain(namespace, unit)
  const inherited = chain.filter((u) => isSet(u.spec, field))
  const mine = isSet(own, field)
  if (!mine && inherited.length === 0) return <span className="text-slate-500">{pending ? '…' : 'none'}</span>
  return (
    <span className="flex flex-col gap-1" data-testid={`bindings-${field}`}>
      {mine && <Values field={field} bindings={own} namespace={namespace} />}
      {inherited.map((u) => (
        <span key={u.name} className="flex flex-wrap items-baseline gap-x-1.5 gap-y-1">
          <span className="text-xs text-slate-500">
            {mine ? 'and ' : ''}inherited from unit{' '}
            <IntentLink href={resourceHref('Unit', u.name, namespace)} className="text-sky-800 underline decoration-sky-800/40 hover:decoration-sky-800">
              {u.name}
            </IntentLink>
            :
          </span>
          <Values field={field} bindings={u.spec} namespace={namespace} />
        </span>
      ))}
    </span>
  )
}
