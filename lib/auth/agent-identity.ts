// Who a request to the gateway is, once its credential checked out: an agent, by its own credential
// (lib/auth/authenticate-agent.ts) or by an OAuth client bound to it (lib/oauth/identify-oauth-token.ts).
export interface AgentIdentity {
  kind: 'agent'
  agentId: string
  name: string
  namespace: string
  credentialId: string
}
