// An IdentityProvider's observed status (docs/design/access.md#identity-provider-status): whether the
// keys its people's tokens are checked with can be had right now, as a Kubernetes-style condition like
// a Tool's, and a phase that sums it up; and why subject tokens were refused, counted by reason. Pure:
// the observations come from lib/identity/record-identity-provider-status.ts.

/** Every phase an IdentityProvider row holds: Pending until its keys were first fetched (or failed to be). */
export const IDENTITY_PROVIDER_PHASES = ['Pending', 'Ready', 'Failed'] as const
export type IdentityProviderPhase = (typeof IDENTITY_PROVIDER_PHASES)[number]

/** Why a subject token was refused, as counted in the provider's status. */
export const REFUSAL_REASONS = ['audience', 'expired', 'unknown_key', 'signature', 'algorithm', 'claims', 'replay'] as const
export type RefusalReason = (typeof REFUSAL_REASONS)[number]

export type RefusalCounts = Partial<Record<RefusalReason, { count: number; lastAt: string }>>

/** Why its keys could not be had: the provider could not be reached, answered something that is no key set, or its discovery failed. */
export const KEYS_FAILURES = ['unreachable', 'timeout', 'invalid_key_set', 'discovery'] as const
export type KeysFailure = (typeof KEYS_FAILURES)[number]

export type KeysObservation = { fetched: true; keyCount: number } | { fetched: false; failure: KeysFailure; error: string }

export interface IdentityProviderCondition {
  type: 'KeysAvailable'
  status: 'True' | 'False'
  reason: string
  message: string
  lastTransitionTime: string
}

const FAILURE_REASONS: Record<KeysFailure, string> = {
  unreachable: 'ProviderUnreachable',
  timeout: 'ProviderTimedOut',
  invalid_key_set: 'InvalidKeySet',
  discovery: 'DiscoveryFailed',
}

/** The longest provider error kept: enough to say what went wrong, not a page of someone's HTML. */
export const MAX_ERROR_LENGTH = 500

/**
 * A provider's error as stored and shown: addresses keep scheme, host and path only (a JWKS or
 * discovery URL may carry credentials in its user info or query), whitespace folded, bounded.
 */
export function boundedProviderError(message: string): string {
  const withoutCredentials = message.replace(/\bhttps?:\/\/[^\s"'<>]+/gi, (found) => {
    // Punctuation after an address ("…:38255: ECONNRESET") is the sentence's, not the address's.
    const address = found.replace(/[.,;:)\]]+$/, '')
    const trailing = found.slice(address.length)
    if (!URL.canParse(address)) return `[address]${trailing}`
    const url = new URL(address)
    return `${url.protocol}//${url.host}${url.pathname === '/' && !address.endsWith('/') ? '' : url.pathname}${trailing}`
  })
  const folded = withoutCredentials.replace(/\s+/g, ' ').trim()
  return folded.length > MAX_ERROR_LENGTH ? `${folded.slice(0, MAX_ERROR_LENGTH - 1)}…` : folded
}

/** The phase and condition an observation of its keys gives, keeping the transition time while the status holds. */
export function keysStatus(
  observation: KeysObservation,
  previous: IdentityProviderCondition[] | unknown,
  now: Date,
): { phase: IdentityProviderPhase; conditions: IdentityProviderCondition[] } {
  const status = observation.fetched ? 'True' : 'False'
  const before = Array.isArray(previous) ? (previous as IdentityProviderCondition[]).find((c) => c?.type === 'KeysAvailable') : undefined
  const lastTransitionTime = before && before.status === status && before.lastTransitionTime ? before.lastTransitionTime : now.toISOString()
  const condition: IdentityProviderCondition = observation.fetched
    ? {
        type: 'KeysAvailable',
        status,
        reason: 'KeysFetched',
        message: `its key set (JWKS) was fetched and holds ${observation.keyCount} key${observation.keyCount === 1 ? '' : 's'}`,
        lastTransitionTime,
      }
    : {
        type: 'KeysAvailable',
        status,
        reason: FAILURE_REASONS[observation.failure],
        message: `its keys cannot be had, so no subject token of it can be checked: ${boundedProviderError(observation.error)}`,
        lastTransitionTime,
      }
  return { phase: observation.fetched ? 'Ready' : 'Failed', conditions: [condition] }
}

/** Adds refusals counted since the last write to the stored counts (a stored value of another shape counts from zero). */
export function addRefusals(stored: unknown, counted: Map<RefusalReason, { count: number; lastAt: Date }>): RefusalCounts {
  const out: RefusalCounts = {}
  const previous = stored && typeof stored === 'object' && !Array.isArray(stored) ? (stored as Record<string, unknown>) : {}
  for (const reason of REFUSAL_REASONS) {
    const before = previous[reason] as { count?: unknown; lastAt?: unknown } | undefined
    const beforeCount = typeof before?.count === 'number' && Number.isSafeInteger(before.count) ? before.count : 0
    const beforeAt = typeof before?.lastAt === 'string' ? before.lastAt : null
    const added = counted.get(reason)
    const count = beforeCount + (added?.count ?? 0)
    if (count === 0) continue
    const addedAt = added?.lastAt.toISOString()
    const lastAt = addedAt && (!beforeAt || addedAt > beforeAt) ? addedAt : (beforeAt ?? addedAt ?? new Date(0).toISOString())
    out[reason] = { count, lastAt }
  }
  return out
}
