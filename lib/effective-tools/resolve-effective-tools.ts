// The effective tool set of an agent or unit (docs/design/effective-tools.md). Pure and deterministic: the same input
// always gives the same entries in the same order. The loader (load-resolver-input.ts) does the I/O.
import { shippedApprovalDefault } from '@/lib/approvals/approval-defaults'
import { parseRef, qualifyRef } from '@/lib/refs/resource-ref'
import { reservedNamespaceOf, toolNamespaceOf } from '@/lib/tools/naming'
import { agentAllowed } from './allowed-agents'
import {
  type CatalogTool,
  type EffectiveTool,
  type EffectiveToolSet,
  type ResolverInput,
  type Tier,
  TIER_PRECEDENCE,
  type UnitChainCandidates,
  type UnresolvedReference,
} from './types'

export interface Candidate {
  tool: CatalogTool
  tier: Tier
  provenance: string
  inheritedFromUnit: string | null
  deniedReason?: string
}

/** How one candidate fares: its state and reason (and, when shadowed, the winner), before it is an entry. */
export interface Verdict {
  candidate: Candidate
  state: EffectiveTool['state']
  reason: string | null
  shadowedBy?: string
  /** Agents only, set after resolving: the Policies that reach this agent and tool (policiesOnTools). */
  policies?: string[]
  /** The tool's name, as the entry will carry it (policiesOnTools reads it). */
  name: string
}

export interface VerdictSet {
  tools: Verdict[]
  excluded: Verdict[]
  unresolved: UnresolvedReference[]
}

export function resolveEffectiveTools(input: ResolverInput): EffectiveToolSet {
  const { tools, excluded, unresolved } = resolveVerdicts(input)
  return { tools: tools.map((v) => entryOf(v, input)), excluded: excluded.map((v) => entryOf(v, input)), unresolved }
}

/**
 * The resolver's decisions without the entries: whoever serializes many answers over the same
 * catalog (serialize-effective-tools.ts) builds an entry only for a decision it has not met before.
 */
export function resolveVerdicts(input: ResolverInput): VerdictSet {
  const unresolved: UnresolvedReference[] = []
  const chain = input.chain ?? unitChainCandidates(input)
  const candidates = gatherCandidates(input, chain, unresolved)

  // Entries under a reserved namespace from a source that does not own it never compete.
  for (const c of candidates) {
    const reserved = reservedDenialOf(c.tool.name, c.tier, input.connectorSlugs)
    if (reserved) c.deniedReason = reserved.message
  }

  // Highest tier wins a name; within a tier the first declared wins.
  const winners = new Map<string, Candidate>()
  for (const c of candidates) {
    if (c.deniedReason) continue
    const current = winners.get(c.tool.name)
    if (!current || TIER_PRECEDENCE[c.tier] > TIER_PRECEDENCE[current.tier]) winners.set(c.tool.name, c)
  }

  const tools: Verdict[] = []
  const excluded: Verdict[] = []
  const toggled = { subject: input.subject, ancestors: input.ancestors, chain }
  const verdict = (c: Candidate, state: EffectiveTool['state'], reason: string | null): Verdict => ({ candidate: c, state, reason, name: c.tool.name })
  for (const c of candidates) {
    if (c.deniedReason) {
      excluded.push(verdict(c, 'denied', c.deniedReason))
      continue
    }
    const winner = winners.get(c.tool.name)!
    if (winner !== c) {
      const where = winner.inheritedFromUnit ? ` (inherited from unit "${winner.inheritedFromUnit}")` : ''
      const reason =
        winner.provenance === c.provenance
          ? `shadowed by the ${winner.tool.source.kind} "${winner.tool.source.name}" of the same name, declared first in ${winner.provenance}`
          : `shadowed by ${winner.provenance}${where}, which takes precedence`
      excluded.push({ ...verdict(c, 'shadowed', reason), shadowedBy: winner.provenance })
      continue
    }
    const denial = safetyDenial(c.tool, input)
    if (denial) {
      excluded.push(verdict(c, 'denied', denial))
      continue
    }
    const toggle = c.tier === 'image' ? null : nearestToggle(c.tool.name, toggled)
    if (toggle && !toggle.enabled) tools.push(verdict(c, 'disabled', `disabled by a toggle on ${toggle.where}`))
    else tools.push(verdict(c, 'enabled', toggle ? `enabled by a toggle on ${toggle.where}` : null))
  }
  return { tools, excluded, unresolved }
}

/** The entry of a verdict (a fresh object: callers fill in statistics and policies in place). */
export function entryOf(v: Verdict, input: Pick<ResolverInput, 'policies'>): EffectiveTool {
  const made = entry(v.candidate, input, v.state, v.reason)
  return v.shadowedBy === undefined ? made : { ...made, shadowedBy: v.shadowedBy }
}

/**
 * What the units above a subject add to its candidates, in the order the resolver lists them: each
 * connector binding and granted Tool once, where it is nearest, and each name's nearest toggle. It
 * depends on the units alone, so every subject below the same units can share it
 * (loadSharedResolverInput); the subject's own bindings come before it (gatherCandidates).
 */
export function unitChainCandidates({
  ancestors,
  connectorTools,
  grantedTools,
}: Pick<ResolverInput, 'ancestors' | 'connectorTools' | 'grantedTools'>): UnitChainCandidates {
  const connectors: UnitChainCandidates['connectors'] = []
  const boundSlugs = new Set<string>()
  for (const unit of ancestors)
    for (const slug of unit.connectors ?? []) {
      if (boundSlugs.has(slug)) continue
      boundSlugs.add(slug)
      connectors.push({ slug, from: unit.name, tools: connectorTools.get(slug) })
    }
  const grants: UnitChainCandidates['grants'] = []
  const granted = new Set<string>()
  for (const unit of ancestors)
    for (const ref of unit.grants ?? []) {
      const tool = grantedTools.get(qualifyRef(ref, unit.namespace))
      if (!tool) {
        grants.push({ ref, from: unit.name, tool: undefined, key: undefined })
        continue
      }
      const key = `${tool.namespace}/${tool.name}`
      if (granted.has(key)) continue
      granted.add(key)
      grants.push({ ref, from: unit.name, tool, key })
    }
  const toggles = new Map<string, { enabled: boolean; where: string }>()
  for (const unit of ancestors)
    for (const [name, enabled] of Object.entries(unit.toggles ?? {})) if (!toggles.has(name)) toggles.set(name, { enabled, where: `unit "${unit.name}"` })
  return { connectors, grants, toggles }
}

function gatherCandidates(input: ResolverInput, chain: UnitChainCandidates, unresolved: UnresolvedReference[]): Candidate[] {
  const { subject } = input
  const out: Candidate[] = []
  const add = (tool: CatalogTool, tier: Tier, provenance: string, inheritedFromUnit: string | null) => out.push({ tool, tier, provenance, inheritedFromUnit })
  // The same broken reference on several levels is reported once, where it is nearest.
  const reported = new Set<string>()
  const missing = (field: string, reference: string, from: string | null, message: string) => {
    if (reported.has(`${field} ${reference}`)) return
    reported.add(`${field} ${reference}`)
    unresolved.push({ field, reference, inheritedFromUnit: from, message })
  }

  for (const tool of input.platformTools) add(tool, 'platform', 'platform', null)

  // The subject first, then its units nearest first: a binding on the subject itself is reported as
  // its own even when a unit binds the same thing too.
  const boundSlugs = new Set<string>()
  const bindConnector = (slug: string, tools: CatalogTool[] | undefined, from: string | null) => {
    if (!tools) return missing('spec.connectors', slug, from, `connector "${slug}" does not exist`)
    // One provenance string for the connector's tools: answers look their entries up by it.
    const provenance = `connector:${slug}`
    for (const tool of tools) add(tool, 'connector', provenance, from)
  }
  for (const slug of subject.connectors ?? []) {
    if (boundSlugs.has(slug)) continue
    boundSlugs.add(slug)
    bindConnector(slug, input.connectorTools.get(slug), null)
  }
  for (const { slug, tools, from } of chain.connectors) if (!boundSlugs.has(slug)) bindConnector(slug, tools, from)

  // Image tools belong to the subject's own image: never inherited.
  const imageProvenance = `image:${subject.imageDigest ?? 'unknown'}`
  for (const tool of subject.imageTools) add(tool, 'image', imageProvenance, null)

  for (const ref of subject.languageTools ?? []) {
    const tools = input.languageToolTools.get(ref)
    if (!tools) {
      missing('spec.languageTools', ref, null, `LanguageTool "${ref}" does not exist`)
      continue
    }
    const provenance = `mcp:${parseRef(ref, subject.namespace).name}`
    for (const tool of tools) add(tool, 'mcp', provenance, null)
  }

  const granted = new Set<string>()
  for (const ref of subject.grants ?? []) {
    const tool = input.grantedTools.get(qualifyRef(ref, subject.namespace))
    if (!tool) {
      missing('spec.grants', ref, null, `Tool "${ref}" does not exist`)
      continue
    }
    const key = `${tool.namespace}/${tool.name}`
    if (granted.has(key)) continue
    granted.add(key)
    add(tool, 'grant', 'grant', null)
  }
  for (const { ref, from, tool, key } of chain.grants) {
    if (!tool) missing('spec.grants', ref, from, `Tool "${ref}" does not exist`)
    else if (!granted.has(key!)) add(tool, 'grant', 'grant', from)
  }

  // Gathered tier by tier in TIERS order, and in declaration order within each tier: already sorted.
  return out
}

/**
 * The input with only the sources of one tool name left. Precedence, safety and toggles are decided
 * name by name, so resolving this gives exactly the entries of `name` that resolving the whole input
 * gives (a property test holds it to that), at the cost of that name's sources alone.
 */
export function inputForName(input: ResolverInput, name: string): ResolverInput {
  const only = (tools: CatalogTool[]) => tools.filter((t) => t.name === name)
  return {
    ...input,
    subject: { ...input.subject, imageTools: only(input.subject.imageTools) },
    platformTools: only(input.platformTools),
    connectorTools: new Map([...input.connectorTools].map(([slug, tools]) => [slug, only(tools)])),
    languageToolTools: new Map([...input.languageToolTools].map(([ref, tools]) => [ref, only(tools)])),
    grantedTools: new Map([...input.grantedTools].filter(([, tool]) => tool.name === name)),
  }
}

/**
 * Whether a candidate may not compete for its name because the name lies in a namespace reserved for
 * another source (`toolroom.*` for the platform, `<slug>.*` for a connector): only image and MCP
 * server tools can be such squatters. `reserved` is the namespace's owner.
 */
export function reservedDenialOf(name: string, tier: Tier, connectorSlugs: ReadonlySet<string>): { reserved: string; message: string } | null {
  if (tier !== 'image' && tier !== 'mcp') return null
  const reserved = reservedNamespaceOf(name, connectorSlugs)
  if (!reserved) return null
  return {
    reserved,
    message: reserved === 'toolroom' ? `"toolroom.*" is reserved for Toolroom's platform tools` : `"${reserved}.*" is reserved for connector "${reserved}"`,
  }
}

/** Which safety rule of the winning tool refuses the subject, if any (deniedNamespaces first). */
export function safetyDenialOf(
  tool: Pick<CatalogTool, 'name' | 'namespace' | 'allowedAgents' | 'deniedNamespaces'>,
  subject: { kind: 'Agent' | 'Unit'; name: string; namespace: string },
): { rule: 'deniedNamespaces' | 'allowedAgents'; message: string } | null {
  if (tool.deniedNamespaces?.includes(subject.namespace))
    return {
      rule: 'deniedNamespaces',
      message: `safety.deniedNamespaces of ${tool.name} includes this ${subject.kind.toLowerCase()}'s namespace "${subject.namespace}"`,
    }
  // allowedAgents names agents; for a unit the check happens per agent below it.
  if (subject.kind === 'Agent' && !agentAllowed(tool.allowedAgents, tool.namespace, subject))
    return {
      rule: 'allowedAgents',
      message: `agent "${subject.namespace}/${subject.name}" is not in safety.allowedAgents of ${tool.name} (${tool.allowedAgents!.join(', ')}; a bare name means namespace "${tool.namespace}")`,
    }
  return null
}

function safetyDenial(tool: CatalogTool, { subject }: ResolverInput): string | null {
  return safetyDenialOf(tool, subject)?.message ?? null
}

/** The toggle that decides whether `name` is on for the subject: its own, else the nearest unit's. */
export function nearestToggle(
  name: string,
  { subject, ancestors, chain }: Pick<ResolverInput, 'subject' | 'ancestors' | 'chain'>,
): { enabled: boolean; where: string } | null {
  const own = subject.toggles?.[name]
  if (own !== undefined) return { enabled: own, where: `${subject.kind.toLowerCase()} "${subject.name}"` }
  if (chain) return chain.toggles.get(name) ?? null
  for (const unit of ancestors) {
    const value = unit.toggles?.[name]
    if (value !== undefined) return { enabled: value, where: `unit "${unit.name}"` }
  }
  return null
}

function entry(c: Candidate, input: Pick<ResolverInput, 'policies'>, state: EffectiveTool['state'], reason: string | null): EffectiveTool {
  const { tool } = c
  const policy = input.policies.get(tool.level)
  const fromTool = tool.requiresApproval !== undefined
  return {
    name: tool.name,
    namespace: tool.namespace,
    toolNamespace: toolNamespaceOf(tool.name),
    description: tool.description,
    inputSchema: tool.inputSchema,
    ...(tool.outputSchema !== undefined ? { outputSchema: tool.outputSchema } : {}),
    provenance: c.provenance,
    tier: c.tier,
    inheritedFromUnit: c.inheritedFromUnit,
    source: tool.source,
    type: tool.type,
    ...(tool.upstreamName !== undefined ? { upstreamName: tool.upstreamName } : {}),
    sideEffects: { level: tool.level, levelSource: tool.levelSource, idempotent: tool.annotations.idempotent },
    requiresApproval: fromTool ? tool.requiresApproval! : (policy?.requiresApproval ?? shippedApprovalDefault(tool.level)),
    approvalSource: fromTool ? 'tool' : policy ? 'policy' : 'default',
    annotations: tool.annotations,
    rateLimit: {
      callsPerMinute: tool.rateLimit?.callsPerMinute ?? policy?.rateLimit?.callsPerMinute ?? null,
      callsPerDay: tool.rateLimit?.callsPerDay ?? policy?.rateLimit?.callsPerDay ?? null,
    },
    state,
    reason,
    totalCalls7d: tool.stats.totalCalls7d,
    failureRate7d: tool.stats.failureRate7d,
    ...(tool.health ? { health: tool.health } : {}),
  }
}
