'use client'
import { IntentLink } from '@/components/ui/intent-link'
import { Card } from '@/components/ui/card'
import { ErrorState, LoadingState } from '@/components/ui/states'
import { PhaseBadge } from '@/components/resources/status-badges'
import type { ToolStatus } from '@/components/tools/tools-list'
import type { ConnectorSpec } from '@/lib/manifests/specs/connector'
import type { AgentSpec } from '@/lib/manifests/specs/fleet'
import type { ToolSpec } from '@/lib/manifests/specs/tool'
import type { Resource } from '@/lib/client/api'
import { useAllResources } from '@/lib/client/hooks'
import { resourceHref } from '@/lib/client/links'
import { parseRef } from '@/lib/refs/resource-ref'
import { phaseProblems } from '@/lib/tools/tool-conditions'

/** Does a reference ("name" or "namespace/name") written in `fromNamespace` point at this server? */
function pointsAt(ref: string, fromNamespace: string, name: string, namespace: string) {
  const target = parseRef(ref, fromNamespace)
  return target.namespace === namespace && target.name === name
}

// Fetched whole and filtered here: the API has no reverse index for references yet.
export function LanguageToolReferencedBy({ name, namespace }: { name: string; namespace: string }) {
  const connectors = useAllResources<Resource<ConnectorSpec>>('connectors')
  const agents = useAllResources<Resource<AgentSpec>>('agents')
  const tools = useAllResources<Resource<ToolSpec, ToolStatus>>('tools', { type: 'mcp' })
  const usedBy = (connectors.data ?? []).filter((c) => c.spec.languageTool && pointsAt(c.spec.languageTool, c.metadata.namespace, name, namespace))
  const referencedBy = (agents.data ?? []).filter((a) => a.spec.languageTools?.some((r) => pointsAt(r, a.metadata.namespace, name, namespace)))
  const toolsOnIt = (tools.data ?? []).filter((t) => t.spec.mcpServerRef && pointsAt(t.spec.mcpServerRef.name, t.metadata.namespace, name, namespace))
  const error = connectors.error ?? agents.error ?? tools.error
  return (
    <Card
      title="Referenced by"
      description="Connectors built on this server, agents that reference it directly, and Tools of type mcp that call it (with their status)."
    >
      {connectors.isPending || agents.isPending || tools.isPending ? (
        <LoadingState />
      ) : error ? (
        <ErrorState error={error} />
      ) : usedBy.length + referencedBy.length + toolsOnIt.length === 0 ? (
        <p className="text-sm text-slate-500">Nothing references this server: its tools reach no agent.</p>
      ) : (
        <ul className="space-y-1 text-sm">
          {usedBy.map((c) => (
            <li key={c.id}>
              Connector{' '}
              <IntentLink href={resourceHref('Connector', c.id)} className="font-mono text-sky-800 hover:underline">
                {c.metadata.name}
              </IntentLink>
            </li>
          ))}
          {referencedBy.map((a) => (
            <li key={a.id}>
              Agent{' '}
              <IntentLink href={resourceHref('Agent', a.id)} className="font-mono text-sky-800 hover:underline">
                {a.metadata.namespace}/{a.metadata.name}
              </IntentLink>
            </li>
          ))}
          {toolsOnIt.map((t) => {
            const problem = phaseProblems(t.status?.conditions ?? [])[0]
            return (
              <li key={t.id} data-testid="server-tool">
                Tool{' '}
                <IntentLink href={resourceHref('Tool', t.id)} className="font-mono text-sky-800 hover:underline">
                  {t.metadata.namespace}/{t.metadata.name}
                </IntentLink>{' '}
                <PhaseBadge phase={t.status?.phase} why={problem?.message} />
                {problem && <span className="block break-words text-xs text-slate-600">{problem.message}</span>}
              </li>
            )
          })}
        </ul>
      )}
    </Card>
  )
}
