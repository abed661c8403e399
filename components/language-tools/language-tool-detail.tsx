'use client'
import { DiscoveryRunsCard } from '@/components/discovery/discovery-runs-card'
import { RefreshButton } from '@/components/discovery/refresh-button'
import { SurfaceChangesCard } from '@/components/discovery/surface-changes'
import { ManifestCard } from '@/components/resources/manifest-card'
import { ResourceDetail } from '@/components/resources/resource-detail'
import { HealthBadge, LabelBadges, PhaseBadge } from '@/components/resources/status-badges'
import { Badge } from '@/components/ui/badge'
import { Card } from '@/components/ui/card'
import { Code } from '@/components/ui/code'
import { DefinitionList } from '@/components/ui/definition-list'
import { dateTime, describeOAuth2Client, timeAgo } from '@/lib/client/format'
import { useSurfaceChanges } from '@/lib/client/hooks'
import { ComplianceReportCard } from './compliance-report'
import { ConnectionCard } from './connection-card'
import { DirectAccessNotice, UNGOVERNED } from './direct-access-notice'
import { DiscoveredToolsTable } from './discovered-tools-table'
import { LanguageToolReferencedBy } from './referenced-by'
import type { LanguageTool } from './types'

const TRANSPORT_LABEL: Record<string, string> = {
  'streamable-http': 'streamable HTTP',
  'streamable-http-2026-07-28': 'streamable HTTP, MCP 2026-07-28',
  sse: 'SSE',
  'stateless-post': 'plain POST /mcp (stateless)',
}

function DetectedTransport({ detected, declared }: { detected: string | null | undefined; declared: string }) {
  if (!detected) return <span className="text-slate-400">not yet detected</span>
  return (
    <span>
      {TRANSPORT_LABEL[detected] ?? detected}
      {!detected.startsWith(declared) && (
        <span className="ml-1 text-xs text-amber-800">(spec says {TRANSPORT_LABEL[declared] ?? declared}: discovery fell back)</span>
      )}
    </span>
  )
}

function Pinning({ pinning }: { pinning: boolean | undefined }) {
  if (pinning === undefined)
    return (
      <span>
        <Badge tone="gray">not set</Badge> <span className="text-xs text-slate-500">the namespace default applies (TOOLROOM_PINNED_NAMESPACES)</span>
      </span>
    )
  return pinning ? (
    <span>
      <Badge tone="amber">on</Badge> <span className="text-xs text-slate-500">changed definitions are held for review before agents see them</span>
    </span>
  ) : (
    <span>
      <Badge tone="gray">off</Badge> <span className="text-xs text-slate-500">changes reach agents as soon as they are discovered</span>
    </span>
  )
}

/** Says so at the top of the page when changes of this server wait for a decision. */
function HeldChangesBanner({ subjectId }: { subjectId: string }) {
  const held = useSurfaceChanges({ subjectKind: 'LanguageTool', subjectId, status: 'pending_review' }, 20)
  const n = held.items.length
  if (n === 0) return null
  return (
    <div
      role="status"
      className="flex flex-wrap items-center justify-between gap-2 rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900"
    >
      <p>
        <span className="font-semibold">
          {n}
          {held.hasNextPage ? '+' : ''} change{n === 1 ? '' : 's'} held for review.
        </span>{' '}
        Agents keep the accepted tool definitions until a change is accepted.
      </p>
      <a href="#change-history" className="font-medium underline">
        Review below
      </a>
    </div>
  )
}

function describeMcpServerAuth(oauth2: NonNullable<LanguageTool['spec']['auth']>['oauth2']): string {
  const secret = (ref: { name: string; key?: string } | undefined) => (ref ? ` · secret ${ref.name}${ref.key ? `/${ref.key}` : ''}` : '')
  if (oauth2.grantType === 'client_credentials') return `${describeOAuth2Client(oauth2)}${secret(oauth2.clientSecretRef)}`
  return [
    `authorization_code, connected by an operator, as ${oauth2.clientId ?? 'a dynamically registered client'}`,
    oauth2.scopes?.length ? `scopes ${oauth2.scopes.join(' ')}` : null,
  ]
    .filter(Boolean)
    .join(' · ')
    .concat(secret(oauth2.clientSecretRef))
}

export function LanguageToolDetail({ id, namespace }: { id: string; namespace?: string }) {
  return (
    <ResourceDetail<LanguageTool>
      kind="LanguageTool"
      id={id}
      namespace={namespace}
      subtitle={(server) => server.spec.description ?? 'MCP tool server'}
      actions={(server) => <RefreshButton plural="languagetools" kind="LanguageTool" subjectId={server.id} variant="primary" />}
      badges={(server) => (
        <>
          <PhaseBadge phase={server.status?.phase} />
          <HealthBadge health={server.status?.health} />
          <LabelBadges labels={server.metadata.labels} />
        </>
      )}
    >
      {(server) => {
        const { name, namespace: ns } = server.metadata
        const { spec, status } = server
        const tools = status?.toolSchemas ?? []
        return (
          <>
            <HeldChangesBanner subjectId={server.id} />
            <DirectAccessNotice servers={spec.directAccess ? [name] : []} />
            {status?.lastError && (
              <div role="alert" className="rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-900">
                <p className="font-semibold">Last introspection failed</p>
                <p className="mt-1 break-words font-mono text-xs">{status.lastError}</p>
                <p className="mt-1 text-xs text-red-800">The tools below are from the last successful discovery, if any.</p>
              </div>
            )}
            <div className="grid gap-4 lg:grid-cols-2">
              <Card title="Status">
                <DefinitionList
                  items={[
                    ['Phase', <PhaseBadge key="p" phase={status?.phase} />],
                    [
                      'Health',
                      <span key="h">
                        <HealthBadge health={status?.health} />
                        {status?.phase === 'Failed' && status.health && (
                          <span className="ml-1 text-xs text-slate-500">as of the last successful discovery</span>
                        )}
                      </span>,
                    ],
                    ['Endpoint', status?.endpoint ? <Code>{status.endpoint}</Code> : '—'],
                    ['Detected transport', <DetectedTransport key="t" detected={status?.detectedTransport} declared={spec.transport} />],
                    [
                      'Server info',
                      status?.serverInfo ? (
                        <span className="font-mono text-xs">
                          {status.serverInfo.name ?? '(no name)'} {status.serverInfo.version ?? ''}
                        </span>
                      ) : (
                        <span className="text-slate-400">not reported</span>
                      ),
                    ],
                    [
                      'Last introspection',
                      status?.lastIntrospectedAt ? (
                        <span title={dateTime(status.lastIntrospectedAt)}>
                          {timeAgo(status.lastIntrospectedAt)} <span className="text-xs text-slate-500">({dateTime(status.lastIntrospectedAt)})</span>
                        </span>
                      ) : (
                        'never'
                      ),
                    ],
                  ]}
                />
              </Card>
              <Card title="Spec">
                <DefinitionList
                  items={[
                    // As applied: langop.io, joch.dev (an MCPServer) or Toolroom's own.
                    ['apiVersion', <Code key="a">{server.apiVersion}</Code>],
                    ['Image', spec.image ? <Code>{spec.image}</Code> : null],
                    ['Explicit endpoint', spec.endpoint ? <Code>{spec.endpoint}</Code> : 'none (in-cluster service address)'],
                    ['Port', String(spec.port)],
                    ['Transport', spec.transport],
                    ['Deployment mode', spec.deploymentMode],
                    ['Pinning', <Pinning key="p" pinning={spec.pinning} />],
                    [
                      'Direct access',
                      spec.directAccess ? (
                        <span key="d">
                          <Badge tone="amber">on</Badge> <span className="text-xs text-slate-500">in agents&apos; config.yaml: {UNGOVERNED}</span>
                        </span>
                      ) : (
                        'off: agents reach it only through the gateway'
                      ),
                    ],
                    [
                      'Auth headers',
                      spec.authHeaders?.length ? (
                        <Code>
                          {spec.authHeaders.map((h) => `${h.name} ← secret ${h.secretRef.name}${h.secretRef.key ? `/${h.secretRef.key}` : ''}`).join(', ')}
                        </Code>
                      ) : (
                        'none'
                      ),
                    ],
                    ['OAuth client', spec.auth ? <Code>{describeMcpServerAuth(spec.auth.oauth2)}</Code> : null],
                  ]}
                />
              </Card>
            </div>
            {spec.auth?.oauth2.grantType === 'authorization_code' && <ConnectionCard name={name} namespace={ns} />}
            <Card
              title={
                <span>
                  Discovered tools <span className="font-normal text-slate-500">{tools.length}</span>
                </span>
              }
              description="From tools/list, in server order. Annotation badges marked * are MCP defaults because the server declared no hint."
              bodyClassName=""
            >
              {tools.length > 0 ? (
                <DiscoveredToolsTable server={name} tools={tools} />
              ) : (
                <p className="px-4 py-4 text-sm text-slate-500">
                  {status?.lastIntrospectedAt ? 'The server lists no tools.' : 'Not introspected yet: the discovery worker has not reached this server.'}
                </p>
              )}
            </Card>
            <ComplianceReportCard compliance={status?.compliance} />
            <SurfaceChangesCard
              filters={{ subjectKind: 'LanguageTool', subjectId: server.id }}
              description="What each discovery found changed in the tool surface, newest first. With pinning, a changed definition waits here for a decision."
            />
            <DiscoveryRunsCard filters={{ subjectKind: 'LanguageTool', subjectId: server.id }} />
            <div className="grid items-start gap-4 lg:grid-cols-[2fr_3fr]">
              <LanguageToolReferencedBy name={name} namespace={ns} />
              <ManifestCard resource={server} />
            </div>
          </>
        )
      }}
    </ResourceDetail>
  )
}
