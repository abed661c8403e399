// How people name an agent in a filter, the same everywhere (calls, approvals, credentials): its id,
// `namespace/name`, or a bare name, which matches that name in every namespace. Pure.

import { isUuid } from '@/lib/refs/uuid'

export type AgentRef = { id: string } | { namespace: string; name: string } | { name: string }

export function parseAgentRef(text: string): AgentRef {
  const ref = text.trim()
  if (isUuid(ref)) return { id: ref.toLowerCase() }
  const slash = ref.indexOf('/')
  return slash < 0 ? { name: ref } : { namespace: ref.slice(0, slash), name: ref.slice(slash + 1) }
}
