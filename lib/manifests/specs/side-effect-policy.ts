import { z } from '@/lib/http/zod'
import { approvalExpirySeconds, approvalSummary, rateLimit, sideEffectLevel } from './common'

// Defaults for one side-effect level; a Tool's own fields override them.
export const sideEffectPolicySpec = z.strictObject({
  level: sideEffectLevel,
  requiresApproval: z.boolean(),
  logArgs: z.boolean().default(true),
  logResult: z.boolean().default(true),
  rateLimit: rateLimit.optional(),
  /** How long a call of this level waits for an approver before it is closed as expired. */
  approvalExpirySeconds: approvalExpirySeconds.optional(),
  /**
   * Approving a call of this level is irreversible enough to ask again: the portal shows the call
   * and its key arguments and waits for a second, explicit yes (one key never approves it).
   * Unset: Toolroom's default (financial and privileged).
   */
  highRisk: z.boolean().optional(),
  /** The arguments the approval queue shows for calls of this level (a tool's own list wins). */
  approvalSummary: approvalSummary.optional(),
  description: z.string().max(4000).optional(),
})

export type SideEffectPolicySpec = z.infer<typeof sideEffectPolicySpec>
