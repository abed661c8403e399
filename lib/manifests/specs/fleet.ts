import { z } from '@/lib/http/zod'
import { canonicalToolId, dnsLabel, httpUrl, imageReference, rateLimit, resourceRef, toggles } from './common'

const connectorSlug = z.string().regex(/^[a-z][a-z0-9_]*$/, 'must be a connector slug (lowercase snake_case)')

const label = {
  displayName: z.string().max(200).optional(),
  description: z.string().max(4000).optional(),
}

// Bindings, grants and toggles on a unit flow down to its sub-units and agents, nearest first
// (docs/design/effective-tools.md#inheritance).
const bindings = {
  connectors: z.array(connectorSlug).max(200).optional(),
  grants: z.array(resourceRef).max(5000).optional(),
  toggles: toggles.optional(),
}

export const unitSpec = z.strictObject({
  ...label,
  parent: dnsLabel('spec.parent').optional(),
  image: imageReference.optional(),
  endpoint: httpUrl.optional(),
  ...bindings,
})

export const agentSpec = z.strictObject({
  ...label,
  unit: dnsLabel('spec.unit').optional(),
  image: imageReference.optional(),
  /** The agent's A2A listener; default `http://<name>.<namespace>.svc.cluster.local:8999`. */
  endpoint: httpUrl.optional(),
  languageTools: z.array(resourceRef).max(200).optional(),
  ...bindings,
  /** Calls per minute and per day this agent may make through the gateway, over all its tools. */
  rateLimit: rateLimit.optional(),
})

export type UnitSpec = z.infer<typeof unitSpec>
export type AgentSpec = z.infer<typeof agentSpec>

const DEFAULT_A2A_PORT = 8999

export function agentEndpoint(name: string, namespace: string, spec: AgentSpec): string {
  return spec.endpoint ?? `http://${name}.${namespace}.svc.cluster.local:${DEFAULT_A2A_PORT}`
}

/** The `sha256:<hex>` digest pinned in an image reference, if any. */
export function imageDigestOf(image: string | undefined): string | null {
  const at = image?.lastIndexOf('@sha256:') ?? -1
  return at === -1 ? null : image!.slice(at + 1)
}

export { canonicalToolId }
