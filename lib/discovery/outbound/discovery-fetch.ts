// The one guarded fetch discovery uses, configured from the environment.
import { parseAddressPolicy } from './address-policy'
import { createGuardedFetch, type GuardedFetch } from './guarded-fetch'

let instance: GuardedFetch | null = null

/** TOOLROOM_OUTBOUND_ALLOW: loopback, private, public, CIDRs and host names (default "loopback,private"). */
export function discoveryFetch(): GuardedFetch {
  instance ??= createGuardedFetch(parseAddressPolicy(process.env.TOOLROOM_OUTBOUND_ALLOW ?? 'loopback,private'), {
    maxBytes: Number(process.env.TOOLROOM_OUTBOUND_MAX_BYTES ?? 4 * 1024 * 1024),
  })
  return instance
}
