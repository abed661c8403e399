// Which addresses Toolroom may connect to (the SSRF guard of discovery, the gateway and webhooks).
// Cloud metadata and link-local addresses are always refused; beyond that only what the allow-list
// names, by default loopback and the private ranges, so in-cluster and local servers work and the
// public internet does not.
import 'server-only'
import { BlockList, isIP } from 'node:net'

const ALWAYS_DENIED: Array<[string, number, 'ipv4' | 'ipv6']> = [
  ['169.254.0.0', 16, 'ipv4'], // link-local, including 169.254.169.254 (AWS, GCP, Azure, OpenStack metadata)
  ['100.100.100.200', 32, 'ipv4'], // Alibaba Cloud metadata
  ['0.0.0.0', 8, 'ipv4'],
  ['224.0.0.0', 4, 'ipv4'], // multicast
  ['255.255.255.255', 32, 'ipv4'],
  ['fe80::', 10, 'ipv6'], // link-local
  ['fd00:ec2::254', 128, 'ipv6'], // AWS metadata over IPv6
  ['ff00::', 8, 'ipv6'], // multicast
  ['::', 128, 'ipv6'],
]

const NAMED_RANGES: Record<string, Array<[string, number, 'ipv4' | 'ipv6']>> = {
  loopback: [
    ['127.0.0.0', 8, 'ipv4'],
    ['::1', 128, 'ipv6'],
  ],
  private: [
    ['10.0.0.0', 8, 'ipv4'],
    ['172.16.0.0', 12, 'ipv4'],
    ['192.168.0.0', 16, 'ipv4'],
    ['100.64.0.0', 10, 'ipv4'],
    ['fc00::', 7, 'ipv6'],
  ],
  public: [
    ['0.0.0.0', 0, 'ipv4'],
    ['::', 0, 'ipv6'],
  ],
}

/**
 * Why an address is refused. `never-allowed`: link-local, metadata and reserved ranges, which no
 * allow-list entry opens (not even a host name allowed by name); `not-allowed`: outside the
 * allow-list; `not-an-address`: not an IP address at all.
 */
export type RefusalCode = 'never-allowed' | 'not-allowed' | 'not-an-address'

export interface Refusal {
  code: RefusalCode
  message: string
}

export interface AddressPolicy {
  /** Why an address is refused, or null when it may be connected to. */
  refusal(address: string): Refusal | null
  /** Host names allowed by name (still resolved and checked against the always-denied ranges). */
  allowsHostName(host: string): boolean
  describe(): string
}

/**
 * @param spec comma-separated entries: `loopback`, `private`, `public`, CIDRs (`10.1.0.0/16`,
 * `2001:db8::/32`), single addresses, or host names (`*.svc.cluster.local`, `api.example.com`).
 * Host names in the list pass the allow-list by name; their addresses must still not be denied.
 */
export function parseAddressPolicy(spec: string = 'loopback,private'): AddressPolicy {
  const denied = new BlockList()
  for (const [address, prefix, type] of ALWAYS_DENIED) denied.addSubnet(address, prefix, type)
  const allowed = new BlockList()
  const hostPatterns: RegExp[] = []
  for (const raw of spec
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const named = NAMED_RANGES[raw]
    if (named) {
      for (const [address, prefix, type] of named) allowed.addSubnet(address, prefix, type)
      continue
    }
    const [address, prefixText] = raw.split('/')
    const family = isIP(address)
    if (family) {
      const type = family === 4 ? 'ipv4' : 'ipv6'
      const prefix = prefixText === undefined ? (family === 4 ? 32 : 128) : Number(prefixText)
      if (!Number.isInteger(prefix) || prefix < 0 || prefix > (family === 4 ? 32 : 128)) throw new Error(`outbound allow-list: bad prefix in "${raw}"`)
      allowed.addSubnet(address, prefix, type)
      continue
    }
    if (!/^(\*\.)?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/i.test(raw))
      throw new Error(`outbound allow-list: "${raw}" is not a range, address or host name`)
    const pattern = raw.startsWith('*.') ? `^[^.]+(\\.[^.]+)*${escape(raw.slice(1))}$` : `^${escape(raw)}$`
    hostPatterns.push(new RegExp(pattern, 'i'))
  }
  // The policy never changes, and the gateway asks about the same few upstream addresses on every
  // call (BlockList.check builds a SocketAddress each time): remember the answers.
  const answers = new Map<string, Refusal | null>()
  const judge = (address: string): Refusal | null => {
    const plain = unmapIPv4(address)
    const family = isIP(plain)
    if (!family) return { code: 'not-an-address', message: `"${address}" is not an IP address` }
    const type = family === 4 ? 'ipv4' : 'ipv6'
    if (denied.check(plain, type)) return { code: 'never-allowed', message: `${plain} is a link-local, metadata or reserved address, which is never allowed` }
    if (!allowed.check(plain, type)) return { code: 'not-allowed', message: `${plain} is not in the outbound allow-list (${spec})` }
    return null
  }
  return {
    refusal(address) {
      const known = answers.get(address)
      if (known !== undefined) return known
      const answer = judge(address)
      if (answers.size >= 4096) answers.clear()
      answers.set(address, answer)
      return answer
    },
    allowsHostName: (host) => hostPatterns.some((p) => p.test(host)),
    describe: () => spec,
  }
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** `::ffff:169.254.169.254` is an IPv4 address in IPv6 clothing: judge it as IPv4. */
function unmapIPv4(address: string): string {
  const m = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)
  return m ? m[1] : address
}
