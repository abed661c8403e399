// What Toolroom ships when no SideEffectPolicy says otherwise (issue: approval queue, §1): money,
// privilege and messages to people wait for a human; everything else runs. Admins override a level
// with a SideEffectPolicy, a tool with `sideEffects.requiresApproval`.
import type { SideEffectLevel } from '@/lib/manifests/specs/common'

export const LEVELS_REQUIRING_APPROVAL: ReadonlySet<SideEffectLevel> = new Set(['financial', 'privileged', 'communication'])

export function shippedApprovalDefault(level: SideEffectLevel): boolean {
  return LEVELS_REQUIRING_APPROVAL.has(level)
}

/** How long a request waits for a decision before it is closed as expired, when nothing overrides it. */
const DEFAULT_APPROVAL_EXPIRY_SECONDS = Number(process.env.TOOLROOM_APPROVAL_EXPIRY_SECONDS ?? 24 * 3600)

export interface ApprovalExpiryInput {
  /** `sideEffects.approvalExpirySeconds` of the Tool, if set. */
  tool?: number | null
  /** `approvalExpirySeconds` of the SideEffectPolicy for the level, if set. */
  policy?: number | null
}

/** Tool over policy over the default; returned with where it came from, shown to approvers. */
export function approvalExpirySeconds({ tool, policy }: ApprovalExpiryInput): { seconds: number; source: 'tool' | 'policy' | 'default' } {
  if (tool) return { seconds: tool, source: 'tool' }
  if (policy) return { seconds: policy, source: 'policy' }
  return { seconds: DEFAULT_APPROVAL_EXPIRY_SECONDS, source: 'default' }
}
