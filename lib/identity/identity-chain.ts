// A request's identity chain as one line (person → agent → tool → upstream credential): who it is for,
// who makes it, what it calls, and with whose credentials the upstream sees it. The explainer's trace
// shows it (docs/design/access.md#on-whose-behalf). Pure.
import type { Executor } from '@/lib/gateway/tool-binding'
import { isConnection, isPerPerson, type OAuth2Client, type OAuth2Connection } from '@/lib/manifests/specs/upstream-auth'
import type { OnBehalfOf } from './person'

export function identityChain(person: OnBehalfOf | null, agent: { namespace: string; name: string }, tool: string, executor: Executor | null): string {
  const who = person ? `${person.displayName} (${person.subject} at ${person.issuer})` : 'nobody (the agent acts on its own)'
  return `${who} → agent ${agent.namespace}/${agent.name} → ${tool} → ${upstreamCredential(executor)}`
}

/** With what the upstream sees the call: Toolroom's service credential of the tool or server, or the person's own connected account. */
export function upstreamCredential(executor: Executor | null): string {
  if (!executor) return 'no upstream (no such tool)'
  switch (executor.kind) {
    case 'platform':
      return 'no upstream (a Toolroom platform tool)'
    case 'os':
      return 'no upstream (a command on the gateway host)'
    case 'none':
      return 'no upstream (the agent runs it itself)'
    case 'rest': {
      const auth = executor.endpoint.auth
      if (!auth || auth.type === 'none') return 'no credential'
      if (auth.type === 'oauth2' && auth.oauth2) return oauth2Text(auth.oauth2)
      return `${auth.type} from Secret ${executor.namespace}/${auth.secretRef?.name ?? '?'} (a service credential)`
    }
    case 'mcp': {
      const { oauth2, authHeaders, namespace } = executor.target
      if (oauth2) return oauth2Text(oauth2)
      if (authHeaders.length)
        return `headers ${authHeaders.map((h) => `${h.name} from Secret ${namespace}/${h.secretRef.name}`).join(', ')} (a service credential)`
      return 'no credential'
    }
  }
}

const oauth2Text = (client: OAuth2Client | OAuth2Connection) =>
  isPerPerson(client)
    ? "OAuth token of the person's own account, connected from their Connections page"
    : isConnection(client)
      ? "OAuth token of the connection an operator made at the server's authorization server (a service credential)"
      : client.grantType === 'token_exchange'
        ? `the person's own token, exchanged by client ${client.clientId} at ${client.issuer ?? client.tokenUrl} (RFC 8693; none for nobody)`
        : `OAuth ${client.grantType} token of client ${client.clientId} at ${client.issuer ?? client.tokenUrl} (a service credential)`
