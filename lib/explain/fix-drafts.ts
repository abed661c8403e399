// "Why not?" answered with the change that fixes it: the manifest of the resource to change, as it is
// stored, with the one field changed, ready to review and apply on the Apply page
// (`/apply?draft=<url-encoded YAML>`). Apply replaces a resource's whole spec, so a draft is always the
// full manifest, never a fragment. Pure; used by the explain API and the agent page alike.
import { stringify } from 'yaml'
import { manifestDocument } from '@/lib/client/manifest'
import { applyDraftHref } from '@/lib/manifests/apply-draft'

interface Manifestable {
  apiVersion: string
  kind: string
  metadata: { name: string; namespace: string; labels?: Record<string, string>; annotations?: Record<string, string> }
  spec: unknown
}

export type FixAction = 'toggle' | 'allowedAgents' | 'deniedNamespaces' | 'grant' | 'connector'

export interface FixDraft {
  action: FixAction
  /** What the draft changes, as a sentence. */
  summary: string
  /** The resource the draft changes. */
  target: { kind: string; namespace: string; name: string }
  /** The whole manifest with the change. */
  yaml: string
}

type Spec = Record<string, unknown>
const specOf = (r: Manifestable): Spec => ({ ...((r.spec ?? {}) as Spec) })

/** The draft of `resource` with `spec` in place of its own. */
export function draftOf(resource: Manifestable, spec: unknown, action: FixAction, summary: string): FixDraft {
  // manifestDocument reads only the envelope's names, labels and annotations.
  const document = manifestDocument({ ...resource, spec } as unknown as Parameters<typeof manifestDocument>[0])
  return {
    action,
    summary,
    target: { kind: resource.kind, namespace: resource.metadata.namespace, name: resource.metadata.name },
    yaml: stringify(document, { lineWidth: 0 }),
  }
}

/** An agent's (or unit's) spec with the tool turned on: its own toggle wins over any unit above it (nearest wins). */
export function withToggleOn(agentSpec: unknown, toolName: string): Spec {
  const spec = { ...((agentSpec ?? {}) as Spec) }
  spec.toggles = { ...((spec.toggles ?? {}) as Record<string, boolean>), [toolName]: true }
  return spec
}

/** The allowedAgents entry naming `agent` from a Tool in `toolNamespace`: a bare name there, else namespace/name. */
export const allowedAgentEntry = (toolNamespace: string, agent: { namespace: string; name: string }) =>
  agent.namespace === toolNamespace ? agent.name : `${agent.namespace}/${agent.name}`

/** A Tool's spec with the agent added to safety.allowedAgents. */
export function withAgentAllowed(toolSpec: unknown, toolNamespace: string, agent: { namespace: string; name: string }): Spec {
  const spec = { ...((toolSpec ?? {}) as Spec) }
  const safety = { ...((spec.safety ?? {}) as Spec) }
  const entry = allowedAgentEntry(toolNamespace, agent)
  const current = (safety.allowedAgents ?? []) as string[]
  safety.allowedAgents = current.includes(entry) ? current : [...current, entry]
  spec.safety = safety
  return spec
}

/** A Tool's spec without `namespace` in safety.deniedNamespaces (and without empty leftovers). */
export function withoutDeniedNamespace(toolSpec: unknown, namespace: string): Spec {
  const spec = { ...((toolSpec ?? {}) as Spec) }
  const safety = { ...((spec.safety ?? {}) as Spec) }
  const remaining = ((safety.deniedNamespaces ?? []) as string[]).filter((n) => n !== namespace)
  if (remaining.length > 0) safety.deniedNamespaces = remaining
  else delete safety.deniedNamespaces
  if (Object.keys(safety).length > 0) spec.safety = safety
  else delete spec.safety
  return spec
}

export function enableToggleDraft(agent: Manifestable, toolName: string): FixDraft {
  return draftOf(
    agent,
    withToggleOn(agent.spec, toolName),
    'toggle',
    `turn ${toolName} on for ${agent.kind.toLowerCase()} ${agent.metadata.name} (spec.toggles)`,
  )
}

/** Grants a Tool resource to the agent (or unit): `name` in its namespace, else `namespace/name`. */
export function grantDraft(agent: Manifestable, tool: { namespace: string; name: string }): FixDraft {
  const spec = specOf(agent)
  const ref = tool.namespace === agent.metadata.namespace ? tool.name : `${tool.namespace}/${tool.name}`
  const current = (spec.grants ?? []) as string[]
  spec.grants = current.includes(ref) ? current : [...current, ref]
  return draftOf(agent, spec, 'grant', `grant Tool ${tool.namespace}/${tool.name} to ${agent.kind.toLowerCase()} ${agent.metadata.name} (spec.grants)`)
}

/** Binds a connector to the agent (or unit), for a name that only its connector may offer. */
export function bindConnectorDraft(agent: Manifestable, slug: string): FixDraft {
  const spec = specOf(agent)
  const current = (spec.connectors ?? []) as string[]
  spec.connectors = current.includes(slug) ? current : [...current, slug]
  return draftOf(agent, spec, 'connector', `bind connector ${slug} to ${agent.kind.toLowerCase()} ${agent.metadata.name} (spec.connectors)`)
}

/** Where a draft opens: the Apply page with the draft as its text. */
export const fixDraftHref = (fix: Pick<FixDraft, 'yaml'>): string => applyDraftHref(fix.yaml)

/**
 * A link's URL must stay well below the 16 KiB request-line limit of the gateway front (README,
 * "Bounded connections"); a longer draft is offered to copy instead.
 */
export const MAX_DRAFT_HREF_LENGTH = 12_000
