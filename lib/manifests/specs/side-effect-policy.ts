import { z } from '@/lib/http/zod'
import { approvalExpirySeconds, rateLimit, sideEffectLevel } from './common'

// Defaults for one side-effect level; a Tool's own fields override them.
export const sideEffectPolicySpec = z.strictObject({
  level: sideEffectLevel,
  requiresApproval: z.boolean(),
  logArgs: z.boolean().default(true),
  logResult: z.boolean().default(true),
  rateLimit: rateLimit.optional(),
  /** How long a call of this level waits for an approver before it is closed as expired. */
  approvalExpirySeconds: approvalExpirySeconds.optional(),
  description: z.string().max(4000).optional(),
})

export type SideEffectPolicySpec = z.infer<typeof sideEffectPolicySpec>
