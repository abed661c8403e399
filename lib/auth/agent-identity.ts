// Who a request to the gateway is, once its credential checked out: an agent, by its own credential
// (lib/auth/authenticate-agent.ts), by an OAuth client bound to it (lib/oauth/identify-oauth-token.ts),
// or by a token exchanged for it to act for a person (lib/oauth/identify-person-token.ts).
import type { Person } from '@/lib/identity/person'

export interface AgentIdentity {
  kind: 'agent'
  agentId: string
  name: string
  namespace: string
  credentialId: string
  /** The person this request is made for, or null when the agent acts on its own (lib/identity/person.ts). */
  person: Person | null
}
