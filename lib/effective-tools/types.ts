import type { SideEffectLevel } from '@/lib/manifests/specs/common'

/** Tiers in listing order (docs/design/effective-tools.md#tiers), which is also the order of the effective set. */
export const TIERS = ['platform', 'connector', 'image', 'mcp', 'grant'] as const
export type Tier = (typeof TIERS)[number]

/** On a name collision the higher tier wins: explicit grant > connector > platform > mcp > image. */
export const TIER_PRECEDENCE: Record<Tier, number> = { grant: 5, connector: 4, platform: 3, mcp: 2, image: 1 }

export type ToolState = 'enabled' | 'disabled' | 'shadowed' | 'denied'
export type LevelSource = 'declared' | 'annotations' | 'default'

export interface ToolAnnotations {
  readOnly: boolean
  destructive: boolean
  idempotent: boolean
  openWorld: boolean
}

export interface RateLimit {
  callsPerMinute: number | null
  callsPerDay: number | null
}

export const SOURCE_KINDS = ['Platform', 'Tool', 'Connector', 'LanguageTool', 'Agent', 'Unit'] as const

export interface SourceRef {
  kind: (typeof SOURCE_KINDS)[number]
  name: string
  namespace: string | null
}

/** A tool as one source offers it, before the effective set is worked out. */
export interface CatalogTool {
  name: string
  /** Namespace of the resource that defines it (the subject's own for image tools). */
  namespace: string | null
  description: string
  inputSchema: unknown
  outputSchema?: unknown
  type: 'function' | 'rest' | 'mcp' | 'os' | null
  level: SideEffectLevel
  levelSource: LevelSource
  annotations: ToolAnnotations
  /** The tool's own approval override (sideEffects.requiresApproval), if any. */
  requiresApproval?: boolean
  rateLimit?: { callsPerMinute?: number; callsPerDay?: number }
  allowedAgents?: string[]
  deniedNamespaces?: string[]
  /** Name to forward to the upstream MCP server when it is not the canonical id. */
  upstreamName?: string
  source: SourceRef
  stats: { totalCalls7d: number; failureRate7d: number | null }
  health?: ToolHealth
}

/** Whether a tool can be called now: its Tool's observed phase, or its MCP server's (README, "Tool status"). */
export interface ToolHealth {
  phase: string
  /** The conditions that do not hold, as the Tool's status names them. */
  problems: { type: string; reason: string; message: string }[]
}

export interface PolicyDefaults {
  requiresApproval: boolean
  rateLimit?: { callsPerMinute?: number; callsPerDay?: number }
  /** What the gateway may record of calls at this level, unless the Tool says. */
  logArgs?: boolean
  logResult?: boolean
}

export interface BindingSet {
  connectors?: string[]
  grants?: string[]
  toggles?: Record<string, boolean>
}

export interface SubjectNode extends BindingSet {
  name: string
  namespace: string
}

export interface ResolverInput {
  subject: SubjectNode & {
    kind: 'Agent' | 'Unit'
    languageTools?: string[]
    imageTools: CatalogTool[]
    imageDigest: string | null
  }
  /** Units above the subject, nearest first. */
  ancestors: SubjectNode[]
  platformTools: CatalogTool[]
  /** Tools of each connector, by slug. */
  connectorTools: ReadonlyMap<string, CatalogTool[]>
  /** Discovered tools of each referenced LanguageTool, by the reference as written. */
  languageToolTools: ReadonlyMap<string, CatalogTool[]>
  /** Tool resources for grants, by the reference as written. */
  grantedTools: ReadonlyMap<string, CatalogTool>
  /** Every connector slug: reserved tool namespaces. */
  connectorSlugs: ReadonlySet<string>
  policies: ReadonlyMap<SideEffectLevel, PolicyDefaults>
  /**
   * What the units above contribute (unitChainCandidates of `ancestors` and the maps above), when
   * worked out once for every subject below them (loadSharedResolverInput); else the resolver works
   * it out from `ancestors`.
   */
  chain?: UnitChainCandidates
}

/** What a subject's unit chain adds to its candidates: the same for every subject below those units. */
export interface UnitChainCandidates {
  /** The units' connector bindings, each slug once, where it is nearest; `tools` absent for a connector that does not exist. */
  connectors: { slug: string; from: string; tools: CatalogTool[] | undefined }[]
  /** The units' grants, each Tool once (`key`), where it is nearest; a reference that does not resolve has no `tool`. */
  grants: { ref: string; from: string; tool: CatalogTool | undefined; key: string | undefined }[]
  /** The nearest unit's toggle of each tool name. */
  toggles: ReadonlyMap<string, { enabled: boolean; where: string }>
}

export interface EffectiveTool {
  name: string
  namespace: string | null
  toolNamespace: string
  description: string
  inputSchema: unknown
  outputSchema?: unknown
  provenance: string
  tier: Tier
  inheritedFromUnit: string | null
  source: SourceRef
  type: CatalogTool['type']
  upstreamName?: string
  sideEffects: { level: SideEffectLevel; levelSource: LevelSource; idempotent: boolean }
  requiresApproval: boolean
  /** Where the requirement came from: the tool's override, the level's SideEffectPolicy, or Toolroom's shipped default. */
  approvalSource: 'tool' | 'policy' | 'default'
  annotations: ToolAnnotations
  rateLimit: RateLimit
  state: ToolState
  reason: string | null
  shadowedBy?: string
  totalCalls7d: number
  failureRate7d: number | null
  health?: ToolHealth
  /** Of totalCalls7d, those Toolroom refused before the tool ran (denied, invalid, rate limited, rejected, expired); set once statistics are attached. */
  refusedCalls7d?: number
  /** Agents only: the Policies (`namespace/name`) whose selector reaches this agent and tool (docs/design/policy.md). */
  policies?: string[]
}

export interface UnresolvedReference {
  field: string
  reference: string
  inheritedFromUnit: string | null
  message: string
}

export interface EffectiveToolSet {
  /** Enabled and operator-disabled entries, in deterministic order. */
  tools: EffectiveTool[]
  /** Shadowed and denied entries, each with its reason. */
  excluded: EffectiveTool[]
  unresolved: UnresolvedReference[]
}
