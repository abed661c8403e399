import { z } from '@/lib/http/zod'
import { canonicalToolId, dnsLabel, httpUrl, imageReference, rateLimit, resourceRef, toggles } from './common'

const connectorSlug = z.string().regex(/^[a-z][a-z0-9_]*$/, 'must be a connector slug (lowercase snake_case)')

// Bindings, grants and toggles on a unit flow down to its sub-units and agents (docs/design/effective-tools.md#inheritance).
export const unitSpec = z.strictObject({
  displayName: z.string().max(200).optional(),
  description: z.string().max(4000).optional(),
  parent: dnsLabel('spec.parent').optional(),
  image: imageReference.optional(),
  endpoint: httpUrl.optional(),
  connectors: z.array(connectorSlug).max(200).optional(),
  grants: z.array(resourceRef).max(5000).optional(),
  toggles: toggles.optional(),
})

export const agentSpec = z.strictObject({
  displayName: z.string().max(200).optional(),
  description: z.string().max(4000).optional(),
  unit: dnsLabel('spec.unit').optional(),
  image: imageReference.optional(),
  /** The agent's A2A listener; default `http://<name>.<namespace>.svc.cluster.local:8999`. */
  endpoint: httpUrl.optional(),
  languageTools: z.array(resourceRef).max(200).optional(),
  connectors: z.array(connectorSlug).max(200).optional(),
  grants: z.array(resourceRef).max(5000).optional(),
  toggles: toggles.optional(),
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
