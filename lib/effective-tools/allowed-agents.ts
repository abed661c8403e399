// Who `safety.allowedAgents` lets in. A bare name means an agent of that name in the tool's own
// namespace; any other namespace has to be named: `namespace/name` for one agent, `namespace/*` for
// every agent there. So an agent created in a namespace the tool's owner never named cannot pass,
// whatever it is called. Pure.

/** An allowedAgents entry: `name`, `namespace/name` or `namespace/*`. */
export const ALLOWED_AGENT_PATTERN = /^([a-z0-9]([-a-z0-9]*[a-z0-9])?\/)?[a-z0-9]([-a-z0-9_.]*[a-z0-9])?$|^[a-z0-9]([-a-z0-9]*[a-z0-9])?\/\*$/

export const ALLOWED_AGENT_FORMS = 'must be "name" (an agent in the tool\'s namespace), "namespace/name" or "namespace/*"'

/** Whether `entry` lets `agent` call a tool defined in `toolNamespace` (null: a tool of no namespace, which bare names cannot match). */
export function allowedAgentMatches(entry: string, toolNamespace: string | null, agent: { namespace: string; name: string }): boolean {
  const slash = entry.indexOf('/')
  const namespace = slash < 0 ? toolNamespace : entry.slice(0, slash)
  const name = slash < 0 ? entry : entry.slice(slash + 1)
  return namespace === agent.namespace && (name === '*' || name === agent.name)
}

/** Whether the list lets the agent in; an empty or missing list restricts nothing. */
export function agentAllowed(entries: readonly string[] | undefined, toolNamespace: string | null, agent: { namespace: string; name: string }): boolean {
  return !entries || entries.length === 0 || entries.some((entry) => allowedAgentMatches(entry, toolNamespace, agent))
}
