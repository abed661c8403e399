'use client'
import { IntentLink } from '@/components/ui/intent-link'
import { DiscoveredToolsTable } from '@/components/language-tools/discovered-tools-table'
import type { LanguageTool } from '@/components/language-tools/types'
import { LevelBadge, TypeBadge } from '@/components/tools/badges'
import type { ToolStatus } from '@/components/tools/tools-list'
import { Badge } from '@/components/ui/badge'
import { Card } from '@/components/ui/card'
import { ErrorState, LoadingState } from '@/components/ui/states'
import { Table, TBody, Td, Th, THead, Tr } from '@/components/ui/table'
import type { ToolSpec } from '@/lib/manifests/specs/tool'
import type { Resource } from '@/lib/client/api'
import { useAllResources, useResource } from '@/lib/client/hooks'
import { refHref, resourceHref } from '@/lib/client/links'
import { parseRef } from '@/lib/refs/resource-ref'

type Tool = Resource<ToolSpec, ToolStatus>

/** The Tool resources a connector lists, looked up in the connector's namespace. */
export function ConnectorToolList({ slug, names, namespace }: { slug: string; names: string[]; namespace: string }) {
  const tools = useAllResources<Tool>('tools', { namespace, q: slug })
  const byName = new Map((tools.data ?? []).map((t) => [t.metadata.name, t]))
  return (
    <Card
      title={
        <span>
          Tools <span className="font-normal text-slate-500">{names.length}</span>
        </span>
      }
      description={`Tool resources in namespace ${namespace}.`}
      bodyClassName=""
    >
      {tools.isPending ? (
        <LoadingState />
      ) : tools.isError ? (
        <ErrorState error={tools.error} onRetry={() => void tools.refetch()} />
      ) : (
        <Table>
          <THead>
            <tr>
              <Th>Tool</Th>
              <Th>Type</Th>
              <Th>Side-effect level</Th>
              <Th>Description</Th>
            </tr>
          </THead>
          <TBody>
            {names.map((name) => {
              const tool = byName.get(name)
              return (
                <Tr key={name}>
                  <Td>
                    <IntentLink
                      href={tool ? resourceHref('Tool', tool.id) : resourceHref('Tool', name, namespace)}
                      className="font-mono text-[13px] text-sky-800 hover:underline"
                    >
                      {name}
                    </IntentLink>
                  </Td>
                  {tool ? (
                    <>
                      <Td>
                        <TypeBadge type={tool.spec.type} />
                      </Td>
                      <Td>
                        <LevelBadge level={tool.spec.sideEffects?.level} />
                      </Td>
                      <Td className="text-xs text-slate-600">{tool.spec.description}</Td>
                    </>
                  ) : (
                    <Td colSpan={3}>
                      <Badge tone="amber">not found in namespace {namespace}</Badge>
                    </Td>
                  )}
                </Tr>
              )
            })}
          </TBody>
        </Table>
      )}
    </Card>
  )
}

/** The tools a connector takes from its MCP server, under the connector's slug. */
export function ConnectorServerTools({ slug, serverRef, namespace }: { slug: string; serverRef: string; namespace: string }) {
  const target = parseRef(serverRef, namespace)
  const server = useResource<LanguageTool>('languagetools', target.name, target.namespace)
  const tools = server.data?.status?.toolSchemas ?? []
  return (
    <Card
      title={
        <span>
          Tools from MCP server{' '}
          <IntentLink href={refHref('LanguageTool', serverRef, namespace)} className="font-mono text-sky-800 hover:underline">
            {serverRef}
          </IntentLink>{' '}
          {server.data && <span className="font-normal text-slate-500">{tools.length}</span>}
        </span>
      }
      description={`Offered as ${slug}.<tool>, as last discovered on the server.`}
      bodyClassName=""
    >
      {server.isPending ? (
        <LoadingState />
      ) : server.isError ? (
        <ErrorState error={server.error} onRetry={() => void server.refetch()} />
      ) : tools.length === 0 ? (
        <p className="px-4 py-4 text-sm text-slate-500">The server has no discovered tools yet.</p>
      ) : (
        <DiscoveredToolsTable server={slug} tools={tools} />
      )}
    </Card>
  )
}
