// What the LanguageTool page and API show of a connection (docs/design/gateway.md, "Connected
// upstreams"): who connected it when, the scopes granted, what the last refresh said. Never a token.
import 'server-only'
import type { AuditContext } from '@/lib/audit/audit-actor'
import { recordAuditEvent } from '@/lib/audit/record-audit-event'
import { prisma } from '@/lib/db'
import { connectableServer } from './start-upstream-connection'
import { connectionConfigKey, type ConnectionState, connectionStateOf, describeConnectionNeed } from './upstream-connection-rules'

export interface UpstreamConnectionState {
  state: ConnectionState
  /** What the operator should know: why it needs (re)connecting, or the last refresh's failure. */
  message: string | null
  authorizationServer: string | null
  scopes: string[]
  connectedAt: string | null
  connectedBy: string | null
  refreshedAt: string | null
  expiresAt: string | null
}

export async function readUpstreamConnection(idOrName: string, namespace: string | undefined): Promise<UpstreamConnectionState> {
  const server = await connectableServer(idOrName, namespace)
  const row = await prisma.upstreamConnection.findUnique({ where: { namespace_name: { namespace: server.namespace, name: server.name } } })
  const { state, message } = connectionStateOf(row, connectionConfigKey(server.endpoint, server.oauth2), describeConnectionNeed)
  return {
    state,
    message,
    authorizationServer: row?.authorizationServer ?? null,
    scopes: row?.scopes ?? [],
    connectedAt: row?.connectedAt.toISOString() ?? null,
    connectedBy: row?.connectedBy ?? null,
    refreshedAt: row?.refreshedAt?.toISOString() ?? null,
    expiresAt: row?.expiresAt?.toISOString() ?? null,
  }
}

/** Forgets the connection's tokens: calls and discovery need it connected again. */
export async function disconnectUpstream(idOrName: string, namespace: string | undefined, audit: AuditContext): Promise<void> {
  const server = await connectableServer(idOrName, namespace)
  const { count } = await prisma.upstreamConnection.deleteMany({ where: { namespace: server.namespace, name: server.name } })
  if (count)
    await recordAuditEvent({
      ...audit,
      action: 'languagetool.disconnected',
      kind: 'LanguageTool',
      namespace: server.namespace,
      resource: server.name,
      resourceId: server.id,
    })
}
