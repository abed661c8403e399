'use client'
// The top of an agent's page: its tool set, and the explainer under it; "Explain" on a tool's card
// fills the explainer in and brings it into view; then the set beside another agent's or a unit's.
import { useQuery } from '@tanstack/react-query'
import { useMemo, useRef } from 'react'
import { QueryView } from '@/components/ui/states'
import { getEffectiveTools } from '@/lib/client/api'
import { queryKeys } from '@/lib/client/query-keys'
import { AgentToolSet } from './agent-tool-set'
import { ComparePanel } from './compare-panel'
import { ExplainCallPanel, type ExplainCallPanelHandle } from './explain-call-panel'

export function AgentToolsArea({ id, namespace, subjectNamespace }: { id: string; namespace?: string; subjectNamespace: string }) {
  const query = useQuery({ queryKey: queryKeys.effectiveTools('agents', id, namespace), queryFn: () => getEffectiveTools('agents', id, namespace) })
  const explainer = useRef<ExplainCallPanelHandle>(null)
  const names = useMemo(() => [...new Set([...(query.data?.effectiveTools ?? []), ...(query.data?.excluded ?? [])].map((t) => t.name))].sort(), [query.data])
  // The entry that decides a name comes first in the set: its schema is the one a call is checked against.
  const schemas = useMemo(() => {
    const out = new Map<string, unknown>()
    for (const t of [...(query.data?.effectiveTools ?? []), ...(query.data?.excluded ?? [])]) if (!out.has(t.name)) out.set(t.name, t.inputSchema)
    return out
  }, [query.data])
  const explain = (tool: string) => {
    explainer.current?.explain(tool)
    document.getElementById('explain')?.scrollIntoView({ behavior: 'smooth', block: 'start' })
  }
  return (
    <div className="space-y-5">
      <QueryView query={query} loadingLabel="Working out the effective tool set…">
        {(data) => <AgentToolSet data={data} agentId={id} namespace={namespace} subjectNamespace={subjectNamespace} onExplain={explain} />}
      </QueryView>
      <ExplainCallPanel ref={explainer} agentId={id} namespace={namespace} toolNames={names} inputSchemas={schemas} />
      <ComparePanel agentId={id} namespace={namespace} subjectNamespace={subjectNamespace} />
    </div>
  )
}
