// MCP's URL-mode elicitation (2025-11-25, basic/elicitation): a call for a person who must first
// connect their own account on an upstream (docs/design/access.md#connected-accounts) is refused with
// -32042 URLElicitationRequired naming the Connections page, for clients that declared they take URL
// elicitation; every other client gets the pipeline's own error, which names the page too.
//
// A 2026-07-28 client declares its capabilities in every request. A 2025-era client declares them
// once, in `initialize`, and this gateway is stateless: what it declared is remembered per credential
// and person in this process (bounded), so a process that did not see its `initialize` answers the
// plain error.
import 'server-only'
import { randomUUID } from 'node:crypto'
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js'
import type { AgentIdentity } from '@/lib/auth/agent-identity'

/** `data.errorCode` of a call for a person who must connect their own account first (./upstream-credential.ts). */
export const CONNECTION_REQUIRED = 'connection_required'

const MAX_REMEMBERED = 10_000
const declared = new Map<string, boolean>()

/** Whether a client's capabilities (`initialize`'s, or a 2026-07-28 request's `_meta`) include URL elicitation. */
export function takesUrlElicitation(capabilities: unknown): boolean {
  const elicitation = (capabilities as { elicitation?: unknown } | null | undefined)?.elicitation
  return typeof elicitation === 'object' && elicitation !== null && typeof (elicitation as { url?: unknown }).url === 'object'
}

// An OAuth client's credential is shared by every person who consented to it, an agent's by every person it acts for.
const clientOf = (agent: AgentIdentity) => JSON.stringify([agent.credentialId, agent.person?.issuer ?? null, agent.person?.subject ?? null])

/** Notes what a 2025-era client declared in its `initialize`. */
export function rememberInitialize(agent: AgentIdentity, params: unknown): void {
  const capabilities = (params as { capabilities?: unknown } | undefined)?.capabilities
  const key = clientOf(agent)
  declared.delete(key)
  if (declared.size >= MAX_REMEMBERED) declared.delete(declared.keys().next().value!)
  declared.set(key, takesUrlElicitation(capabilities))
}

export const declaredUrlElicitation = (agent: AgentIdentity) => declared.get(clientOf(agent)) === true

/** The -32042 error for `url`, or null when the address is not one a client could open (no absolute URL known). */
export function urlElicitationError(url: unknown, message: string, data: Record<string, unknown>): { code: number; message: string; data: unknown } | null {
  if (typeof url !== 'string' || !URL.canParse(url)) return null
  return {
    code: ErrorCode.UrlElicitationRequired,
    message,
    data: { ...data, elicitations: [{ mode: 'url', elicitationId: randomUUID(), url, message }] },
  }
}
