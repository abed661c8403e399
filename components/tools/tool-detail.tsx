'use client'
import { ManifestCard } from '@/components/resources/manifest-card'
import { namespaceDefinition, updatedDefinition } from '@/components/resources/resource-definitions'
import { ResourceDetail } from '@/components/resources/resource-detail'
import { LabelBadges, PhaseBadge } from '@/components/resources/status-badges'
import { CallStatsPanel } from '@/components/stats/call-stats-panel'
import { ToolFailureView } from '@/components/stats/tool-failure-view'
import { Card } from '@/components/ui/card'
import { Code } from '@/components/ui/code'
import { DefinitionList } from '@/components/ui/definition-list'
import type { ToolSpec } from '@/lib/manifests/specs/tool'
import type { Resource } from '@/lib/client/api'
import { count, dateTime, isHighFailureRate, percent } from '@/lib/client/format'
import { toolResourceStatKey } from '@/lib/stats/tool-stat-key'
import { AgentsWithTool } from './agents-with-tool'
import { ApprovalBadge, LevelBadge, TypeBadge } from './badges'
import { SchemaView } from './schema-view'
import { ToolConditionsList } from './tool-conditions'
import { ToolSpecCards } from './tool-spec-cards'
import type { ToolStatus } from './tools-list'

type Tool = Resource<ToolSpec, ToolStatus>

function StatusCard({ status }: { status: ToolStatus | undefined }) {
  const calls = status?.totalCalls7d ?? 0
  return (
    <Card title="Status" description="Observed now: what a call needs, and whether it holds. Calls and failure rate: the last seven days.">
      <DefinitionList
        columns={3}
        items={[
          ['Phase', <PhaseBadge key="p" phase={status?.phase} />],
          ['Calls (7 days)', calls > 0 ? count(calls) : <span className="text-slate-500">no calls recorded</span>],
          [
            'Failure rate (7 days)',
            calls > 0 && status?.failureRate7d !== null && status?.failureRate7d !== undefined ? (
              <span className={isHighFailureRate(status.failureRate7d) ? 'font-medium text-red-700' : ''}>{percent(status.failureRate7d)}</span>
            ) : (
              <span className="text-slate-500">no calls recorded</span>
            ),
          ],
        ]}
      />
      <div className="mt-3 border-t border-slate-100 pt-1">
        <ToolConditionsList conditions={status?.conditions} />
      </div>
    </Card>
  )
}

export function ToolDetail({ id, namespace }: { id: string; namespace?: string }) {
  return (
    <ResourceDetail<Tool>
      kind="Tool"
      id={id}
      namespace={namespace}
      subtitle={(tool) => tool.spec.description}
      badges={(tool) => (
        <>
          <TypeBadge type={tool.spec.type} />
          <LevelBadge level={tool.spec.sideEffects?.level} />
          <ApprovalBadge required={tool.spec.sideEffects?.requiresApproval === true} source="tool" />
          <PhaseBadge phase={tool.status?.phase} />
          <LabelBadges labels={tool.metadata.labels} />
        </>
      )}
    >
      {(tool) => {
        const { name, namespace: ns, annotations } = tool.metadata
        return (
          <>
            <StatusCard status={tool.status} />
            <CallStatsPanel
              subject={{ dimension: 'tool', id: name, namespace: ns }}
              callsHref={`/calls?toolKey=${encodeURIComponent(toolResourceStatKey(ns, name))}`}
            />
            <ToolFailureView toolKey={toolResourceStatKey(ns, name)} />
            <AgentsWithTool toolId={tool.id} namespace={ns} />
            <ToolSpecCards spec={tool.spec} namespace={ns} />
            <div className="grid gap-4 lg:grid-cols-2">
              <Card title="Input schema">
                <SchemaView schema={tool.spec.inputSchema} />
              </Card>
              <Card title="Output schema">
                <SchemaView schema={tool.spec.outputSchema} emptyLabel="No output schema declared." />
              </Card>
            </div>
            <div className="grid items-start gap-4 lg:grid-cols-[2fr_3fr]">
              <Card title="Metadata">
                <DefinitionList
                  columns={1}
                  items={[
                    ['apiVersion', <Code key="a">{tool.apiVersion}</Code>],
                    namespaceDefinition(tool.metadata),
                    ['Annotations', Object.keys(annotations).length ? <LabelBadges labels={annotations} /> : null],
                    ['Created', dateTime(tool.metadata.createdAt)],
                    updatedDefinition(tool.metadata),
                    ['Id', <Code key="i">{tool.id}</Code>],
                  ]}
                />
              </Card>
              <ManifestCard resource={tool} />
            </div>
          </>
        )
      }}
    </ResourceDetail>
  )
}
