// TOOLROOM_TRUSTED_PROXIES as the client-address rules (lib/request-origin/client-address.ts) use it: IP addresses
// and CIDRs. Pure, and below both its readers (lib/net/ holds address rules only): lib/config.ts
// parses the variable with it once per process, so an entry that is neither stops the process at
// start instead of being guessed at (or quietly trusting nobody) on every request.
import 'server-only'
import { BlockList, isIP } from 'node:net'

/** An IP address in its usual form (IPv4-mapped IPv6 as IPv4), or null for anything else. */
export function normalizeAddress(value: string): string | null {
  let address = value.trim()
  if (address.startsWith('[') && address.endsWith(']')) address = address.slice(1, -1)
  if (address.length > 45) return null
  const family = isIP(address)
  if (family === 4) return address
  if (family !== 6) return null
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)
  return mapped ? mapped[1] : address.toLowerCase()
}

/** The proxies of a comma list of IPs and CIDRs (null when it lists none); throws naming the first entry that is neither. */
export function parseTrustedProxies(text: string): BlockList | null {
  let list: BlockList | null = null
  for (const entry of text
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean)) {
    const [address, prefix, ...rest] = entry.split('/')
    const ip = normalizeAddress(address)
    const family = ip ? isIP(ip) : 0
    const widest = family === 4 ? 32 : 128
    const bits = prefix === undefined ? widest : Number(prefix)
    if (!ip || rest.length > 0 || (prefix !== undefined && !/^\d{1,3}$/.test(prefix)) || bits > widest)
      throw new Error(`"${entry.slice(0, 100)}" is not an IP address or CIDR`)
    list ??= new BlockList()
    list.addSubnet(ip, bits, family === 4 ? 'ipv4' : 'ipv6')
  }
  return list
}

export function isTrustedAddress(list: BlockList, address: string): boolean {
  return list.check(address, isIP(address) === 6 ? 'ipv6' : 'ipv4')
}
