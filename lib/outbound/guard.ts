// The SSRF checks every outbound connection passes, in one place: the URL's scheme and literal
// address before anything is sent, and every address a host name resolves to at connect time (after
// DNS, so a name cannot be re-pointed between the check and the connection).
import 'server-only'
import dns from 'node:dns'
import { isIP } from 'node:net'
import type { AddressPolicy } from '@/lib/net/address-policy'
import { OutboundError } from './outbound-error'

type LookupCallback = (err: Error | null, address: string | dns.LookupAddress[], family?: number) => void

/** A `lookup` for http(s) agents and undici's connector that refuses names resolving where the policy forbids. */
export function guardedLookup(policy: AddressPolicy) {
  return (hostname: string, options: dns.LookupOptions, callback: LookupCallback) => {
    dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, [])
      const refused = resolvedRefusal(
        hostname,
        addresses.map((a) => a.address),
        policy,
      )
      if (refused) return callback(refused, [])
      if (options.all) callback(null, addresses)
      else callback(null, addresses[0].address, addresses[0].family)
    })
  }
}

/** Why a connection to `hostname`, resolved to `addresses`, is refused; null when every address may be used. */
export function resolvedRefusal(hostname: string, addresses: readonly string[], policy: AddressPolicy): OutboundError | null {
  const byName = policy.allowsHostName(hostname)
  for (const address of addresses) {
    const refusal = policy.refusal(address)
    // A host allowed by name may resolve outside the allow-list, never into the denied ranges.
    if (refusal && !(byName && refusal.code !== 'never-allowed'))
      return new OutboundError('refused', `${hostname} resolves to ${refusal.message}`, refusal.code)
  }
  return null
}

/** Throws unless `url` is http(s) and, when its host is an IP address, one the policy allows. */
export function checkTarget(url: URL, policy: AddressPolicy): void {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new OutboundError('refused', `${url.protocol} URLs are not fetched`, 'scheme')
  const host = url.hostname.replace(/^\[|\]$/g, '')
  if (!isIP(host)) return
  const refusal = policy.refusal(host)
  if (refusal) throw new OutboundError('refused', refusal.message, refusal.code)
}
