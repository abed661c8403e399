// The access token an `oauth2` upstream credential gets (lib/upstream-auth), as the executors inject
// it: a refusal by the authorization server, a connected server nobody has connected, or a person's
// token for a call made for nobody, is the call's failure, named for what it is.
import 'server-only'
import type { Person } from '@/lib/identity/person'
import type { OAuth2Client, OAuth2Connection } from '@/lib/manifests/specs/upstream-auth'
import { portalOriginFor } from '@/lib/identity/portal-person'
import { isConnection, isPerPerson } from '@/lib/manifests/specs/upstream-auth'
import { refreshOAuthToolStatus, refreshToolStatusAfter } from '@/lib/tools/refresh-tool-status'
import { getConnectionToken } from '@/lib/upstream-auth/get-connection-token'
import { exchangeForUpstream, PersonTokenUnavailable } from '@/lib/upstream-auth/exchange-for-upstream'
import { getPersonConnectionToken } from '@/lib/upstream-auth/get-person-connection-token'
import { getUpstreamToken } from '@/lib/upstream-auth/get-upstream-token'
import { connectionsPageUrl, PersonConnectionNeeded, UpstreamConnectionNeeded } from '@/lib/upstream-auth/upstream-connection-rules'
import { UpstreamTokenError } from '@/lib/upstream-auth/upstream-token-rules'
import { ToolFailure } from './tool-errors'
import { CONNECTION_REQUIRED } from './url-elicitation'

/**
 * The bearer token for the upstream: the service's own, or (token_exchange) the person's the call is
 * made for. An UpstreamTokenError becomes a ToolFailure `upstream_auth` carrying the server's error.
 */
export async function upstreamBearerToken(oauth2: OAuth2Client, namespace: string, person: Person | null | undefined): Promise<string> {
  try {
    if (oauth2.grantType === 'token_exchange') return await exchangeForUpstream(oauth2, namespace, person, refreshOAuthToolStatus)
    return await getUpstreamToken(oauth2, namespace, refreshOAuthToolStatus)
  } catch (e) {
    if (e instanceof PersonTokenUnavailable)
      throw new ToolFailure(`no access token for the upstream: ${e.message}`, 'upstream_auth', { person: { need: e.need } })
    throw asToolFailure(e)
  }
}

/**
 * The same for an MCP server: its service credential, the connection an operator made
 * (docs/design/gateway.md, "Connected upstreams"), or the connection of the person the call is made
 * for (docs/design/access.md#connected-accounts).
 */
export async function mcpServerBearerToken(
  server: { namespace: string; name: string; endpoint: string },
  oauth2: OAuth2Client | OAuth2Connection,
  person: Person | null | undefined,
): Promise<string> {
  if (!isConnection(oauth2)) return upstreamBearerToken(oauth2, server.namespace, person)
  if (isPerPerson(oauth2)) return personBearerToken(server, oauth2, person ?? null)
  try {
    return await getConnectionToken({ ...server, oauth2 }, () =>
      refreshToolStatusAfter([{ kind: 'LanguageTool', namespace: server.namespace, name: server.name }]),
    )
  } catch (e) {
    if (e instanceof UpstreamConnectionNeeded)
      throw new ToolFailure(`the MCP server "${server.namespace}/${server.name}": ${e.message}`, 'upstream_auth', {
        connection: { need: e.need, ...(e.error ? { error: e.error } : {}), ...(e.description ? { description: e.description } : {}) },
      })
    throw asToolFailure(e)
  }
}

async function personBearerToken(server: { namespace: string; name: string; endpoint: string }, oauth2: OAuth2Connection, person: Person | null) {
  try {
    return await getPersonConnectionToken({ ...server, oauth2 }, person)
  } catch (e) {
    if (!(e instanceof PersonConnectionNeeded)) throw asToolFailure(e)
    const what = `the MCP server "${server.namespace}/${server.name}" ${e.message}`
    if (!e.connectable || !person) throw new ToolFailure(what, 'upstream_auth', { connection: { need: e.need, perPerson: true } })
    const url = connectionsPageUrl(portalOriginFor(person), server)
    throw new ToolFailure(`${what}: connect it on the Connections page (${url}), then call again`, CONNECTION_REQUIRED, {
      connection: { need: e.need, perPerson: true, url, languageTool: `${server.namespace}/${server.name}` },
    })
  }
}

function asToolFailure(e: unknown): unknown {
  if (!(e instanceof UpstreamTokenError)) return e
  return new ToolFailure(`no access token for the upstream: ${e.message}`, 'upstream_auth', {
    authorizationServer: { server: e.server, error: e.error, ...(e.description ? { description: e.description } : {}) },
  })
}
