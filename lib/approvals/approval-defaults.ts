// What Toolroom ships when no SideEffectPolicy says otherwise (issue: approval queue, §1): money,
// privilege and messages to people wait for a human; everything else runs. Admins override a level
// with a SideEffectPolicy, a tool with `sideEffects.requiresApproval`.
import type { SideEffectLevel } from '@/lib/manifests/specs/common'

export const LEVELS_REQUIRING_APPROVAL: ReadonlySet<SideEffectLevel> = new Set(['financial', 'privileged', 'communication'])

export function shippedApprovalDefault(level: SideEffectLevel): boolean {
  return LEVELS_REQUIRING_APPROVAL.has(level)
}

export interface ApprovalExpiryInput {
  /** `sideEffects.approvalExpirySeconds` of the Tool, if set. */
  tool?: number | null
  /** `approvalExpirySeconds` of the SideEffectPolicy for the level, if set. */
  policy?: number | null
  /** When nothing overrides it (TOOLROOM_APPROVAL_EXPIRY_SECONDS). */
  fallback: number
}

// Pure, and free of lib/config.ts: the portal's policy card imports this module into the browser.
/** Tool over policy over the default; returned with where it came from, shown to approvers. */
export function approvalExpirySeconds({ tool, policy, fallback }: ApprovalExpiryInput): { seconds: number; source: 'tool' | 'policy' | 'default' } {
  if (tool) return { seconds: tool, source: 'tool' }
  if (policy) return { seconds: policy, source: 'policy' }
  return { seconds: fallback, source: 'default' }
}

/**
 * Levels whose approval the portal confirms before sending it: a refund, a privilege grant or code
 * run on a machine (`rm -rf` in a pod) cannot be undone by the approver afterwards. A
 * SideEffectPolicy's `highRisk` changes it per level.
 */
export const HIGH_RISK_LEVELS: ReadonlySet<SideEffectLevel> = new Set(['financial', 'privileged', 'code_execution'])

export interface ApprovalPresentationInput {
  level: SideEffectLevel | null
  /** `sideEffects.approvalSummary` of the Tool, if set. */
  toolSummary?: string[] | null
  /** `approvalSummary` and `highRisk` of the SideEffectPolicy for the level, if set. */
  policySummary?: string[] | null
  policyHighRisk?: boolean | null
}

export interface ApprovalPresentation {
  /** Argument paths (`args.amount`) the queue shows; null: the first few arguments. */
  summaryFields: string[] | null
  summarySource: 'tool' | 'policy' | 'default'
  highRisk: boolean
  highRiskSource: 'policy' | 'default'
}

/** How approvers see a request: tool over policy over the default, each with where it came from. */
export function approvalPresentation({ level, toolSummary, policySummary, policyHighRisk }: ApprovalPresentationInput): ApprovalPresentation {
  const summary = toolSummary?.length
    ? { summaryFields: toolSummary, summarySource: 'tool' as const }
    : policySummary?.length
      ? { summaryFields: policySummary, summarySource: 'policy' as const }
      : { summaryFields: null, summarySource: 'default' as const }
  const highRisk =
    typeof policyHighRisk === 'boolean'
      ? { highRisk: policyHighRisk, highRiskSource: 'policy' as const }
      : { highRisk: level !== null && HIGH_RISK_LEVELS.has(level), highRiskSource: 'default' as const }
  return { ...summary, ...highRisk }
}
