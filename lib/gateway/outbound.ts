// The SSRF-guarded fetch the gateway calls upstreams with: the same policy as discovery
// (TOOLROOM_OUTBOUND_ALLOW), answers up to TOOLROOM_GATEWAY_MAX_RESPONSE_BYTES.
import { parseAddressPolicy } from '@/lib/discovery/outbound/address-policy'
import { createGuardedFetch, type GuardedFetch } from '@/lib/discovery/outbound/guarded-fetch'

let instance: GuardedFetch | null = null

export function gatewayFetch(): GuardedFetch {
  instance ??= createGuardedFetch(parseAddressPolicy(process.env.TOOLROOM_OUTBOUND_ALLOW ?? 'loopback,private'), {
    maxBytes: Number(process.env.TOOLROOM_GATEWAY_MAX_RESPONSE_BYTES ?? 4 * 1024 * 1024),
    maxRedirects: 0,
  })
  return instance
}
