'use client'
import { useQuery } from '@tanstack/react-query'
import { Badge } from '@/components/ui/badge'
import { Card } from '@/components/ui/card'
import { EmptyState, QueryView } from '@/components/ui/states'
import { getEffectiveTools, type ImageToolsStatus } from '@/lib/client/api'
import { groupByProvenance, type ProvenanceGroup } from '@/lib/client/effective-tools'
import { queryKeys } from '@/lib/client/query-keys'
import { EffectiveToolsTable } from './effective-tools-table'
import { ImageToolsSection } from './image-tools-section'
import { UnresolvedWarnings } from './unresolved-warnings'

const TIER_NOTE: Record<string, string> = {
  platform: "Toolroom's own tools: discovery, calling and approval status.",
  connector: 'Tools of a connector bound to this subject or one of its units.',
  mcp: 'Tools discovered on a referenced MCP server (LanguageTool).',
  grant: 'Tools granted explicitly, here or on a unit above.',
}

function Section({ group, unitNamespace }: { group: ProvenanceGroup; unitNamespace: string }) {
  const enabled = group.tools.filter((t) => t.state === 'enabled').length
  return (
    <Card
      title={
        <span className="flex items-center gap-2">
          {group.title} <span className="font-normal text-slate-500">{group.tools.length}</span>
          {enabled < group.tools.length && <Badge tone="gray">{group.tools.length - enabled} disabled</Badge>}
        </span>
      }
      description={TIER_NOTE[group.tier]}
      bodyClassName=""
    >
      <EffectiveToolsTable tools={group.tools} unitNamespace={unitNamespace} />
    </Card>
  )
}

/**
 * The effective tool set of an agent or unit, grouped by provenance, with what was left out and why.
 * `id` and `namespace` are as the page was addressed; the subject's own namespace resolves unit links.
 */
export function EffectiveToolsPanel({
  plural,
  id,
  namespace,
  subjectNamespace,
  imageTools,
  pinnedDigest,
  showImageSection,
  introspection,
}: {
  plural: 'agents' | 'units'
  id: string
  namespace?: string
  subjectNamespace: string
  imageTools: ImageToolsStatus | undefined
  pinnedDigest: string | null
  showImageSection: boolean
  /** Shown right after the Image section: how its tools were introspected (agents, units with an image endpoint). */
  introspection?: React.ReactNode
}) {
  const query = useQuery({ queryKey: queryKeys.effectiveTools(plural, id, namespace), queryFn: () => getEffectiveTools(plural, id, namespace) })
  return (
    <QueryView query={query} loadingLabel="Working out the effective tool set…">
      {(data) => {
        const groups = groupByProvenance(data.effectiveTools)
        const image = groups.filter((g) => g.tier === 'image').flatMap((g) => g.tools)
        const before = groups.filter((g) => g.tier === 'platform' || g.tier === 'connector')
        const after = groups.filter((g) => g.tier === 'mcp' || g.tier === 'grant')
        const excluded = data.excluded ?? []
        const enabled = data.effectiveTools.filter((t) => t.state === 'enabled').length
        return (
          <div className="space-y-4">
            <p className="text-sm text-slate-600">
              <span className="font-semibold text-slate-900">{enabled}</span> enabled of {data.effectiveTools.length} tools
              {excluded.length > 0 && <>, {excluded.length} excluded</>}. Click a row for its input schema and source; a level marked * is derived from MCP
              hints or assumed, not declared.
            </p>
            <UnresolvedWarnings unresolved={data.unresolved} />
            {data.effectiveTools.length === 0 && <EmptyState title="No effective tools" />}
            {before.map((g) => (
              <Section key={g.provenance} group={g} unitNamespace={subjectNamespace} />
            ))}
            {(showImageSection || image.length > 0) && (
              <ImageToolsSection
                plural={plural}
                id={id}
                namespace={namespace}
                tools={image}
                imageTools={imageTools}
                pinnedDigest={pinnedDigest}
                unitNamespace={subjectNamespace}
              />
            )}
            {introspection}
            {after.map((g) => (
              <Section key={g.provenance} group={g} unitNamespace={subjectNamespace} />
            ))}
            <Card
              id="excluded"
              title={
                <span>
                  Excluded <span className="font-normal text-slate-500">{excluded.length}</span>
                </span>
              }
              description="Shadowed by a higher tier on a name collision, or denied by safety rules and reserved namespaces."
              bodyClassName=""
            >
              {excluded.length > 0 ? (
                <EffectiveToolsTable tools={excluded} unitNamespace={subjectNamespace} showProvenance />
              ) : (
                <p className="px-4 py-4 text-sm text-slate-500">
                  Nothing excluded: every tool offered to this {plural === 'agents' ? 'agent' : 'unit'} is in the set above.
                </p>
              )}
            </Card>
          </div>
        )
      }}
    </QueryView>
  )
}
