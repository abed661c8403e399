// The one place that decides which address a request came from (sign-in and password-change
// limits, the audit log). `X-Forwarded-For` is written by whoever sends the request, so it is only
// believed hop by hop from the right, and only while the hop that wrote it is a proxy the operator
// named in TOOLROOM_TRUSTED_PROXIES (IPs and CIDRs; none by default).
//
// Next.js hides the socket from route handlers, and keeps a client's own X-Forwarded-For instead of
// recording its peer, so the lean gateway front (lib/gateway/server.ts), which owns the public
// socket, tells Next.js the peer in a private header, with a proof only processes holding
// TOOLROOM_SECRET_KEY can make; it overwrites any copy a client sent. Without the front, Next.js
// must only be reachable through the trusted proxies; with none configured the address is unknown.
import 'server-only'
import { createHash, hkdfSync, timingSafeEqual } from 'node:crypto'
import { BlockList, isIP } from 'node:net'

export const PEER_ADDRESS_HEADER = 'x-toolroom-peer-address'
export const PEER_PROOF_HEADER = 'x-toolroom-peer-proof'

/** Headers the front puts on every request it passes on, replacing any a client sent. */
export function frontPeerHeaders(remoteAddress: string | undefined): Record<string, string> {
  const proof = peerProof()
  if (!proof || !remoteAddress) return { [PEER_ADDRESS_HEADER]: '', [PEER_PROOF_HEADER]: '' }
  return { [PEER_ADDRESS_HEADER]: remoteAddress, [PEER_PROOF_HEADER]: proof }
}

/** The client's address, or null when it cannot be known (no front, no trusted proxy). */
export function clientAddress(request: Request | Headers, env: Record<string, string | undefined> = process.env): string | null {
  const headers = request instanceof Headers ? request : request.headers
  const trusted = trustedProxies(env.TOOLROOM_TRUSTED_PROXIES)
  const forwarded = (headers.get('x-forwarded-for') ?? '')
    .split(',')
    .map((hop) => hop.trim())
    .filter(Boolean)
  const peer = frontPeer(headers)
  if (peer) return walk(peer, forwarded, trusted)
  // No front: whoever connected is assumed to be one of the trusted proxies (README, "Web security").
  if (!trusted || forwarded.length === 0) return null
  const nearest = normalize(forwarded[forwarded.length - 1])
  return nearest ? walk(nearest, forwarded.slice(0, -1), trusted) : null
}

/** Whether the request came through the lean front (it carries the front's proof), which then wrote its forwarding headers. */
export function cameThroughFront(headers: Headers): boolean {
  return frontPeer(headers) !== null
}

/** Whether TOOLROOM_TRUSTED_PROXIES names any proxy (without the front, Next.js is then reachable only through them). */
export function hasTrustedProxies(env: Record<string, string | undefined> = process.env): boolean {
  return trustedProxies(env.TOOLROOM_TRUSTED_PROXIES) !== null
}

/** Whether `address` (a socket's peer) is one of TOOLROOM_TRUSTED_PROXIES. */
export function isTrustedProxy(address: string | undefined, env: Record<string, string | undefined> = process.env): boolean {
  const trusted = trustedProxies(env.TOOLROOM_TRUSTED_PROXIES)
  const ip = address ? normalize(address) : null
  return trusted !== null && ip !== null && isTrusted(trusted, ip)
}

/** From the peer leftwards: every trusted hop is believed about the hop before it; the first untrusted one is the client. */
function walk(peer: string, forwarded: string[], trusted: BlockList | null): string {
  let address = peer
  for (let i = forwarded.length - 1; i >= 0 && trusted && isTrusted(trusted, address); i--) {
    const previous = normalize(forwarded[i])
    // A trusted proxy passed on garbage: it is the last address anyone vouches for.
    if (!previous) break
    address = previous
  }
  return address
}

function frontPeer(headers: Headers): string | null {
  const proof = peerProof()
  const sent = headers.get(PEER_PROOF_HEADER)
  if (!proof || !sent) return null
  const a = Buffer.from(sent)
  const b = Buffer.from(proof)
  if (a.length !== b.length || !timingSafeEqual(a, b)) return null
  return normalize(headers.get(PEER_ADDRESS_HEADER) ?? '')
}

/** An IP address in its usual form (IPv4-mapped IPv6 as IPv4), or null for anything else. */
function normalize(value: string): string | null {
  let address = value.trim()
  if (address.startsWith('[') && address.endsWith(']')) address = address.slice(1, -1)
  if (address.length > 45) return null
  const family = isIP(address)
  if (family === 4) return address
  if (family !== 6) return null
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)
  return mapped ? mapped[1] : address.toLowerCase()
}

function isTrusted(list: BlockList, address: string): boolean {
  return list.check(address, isIP(address) === 6 ? 'ipv6' : 'ipv4')
}

let parsed: { source: string; list: BlockList | null } | null = null

function trustedProxies(source: string | undefined): BlockList | null {
  const text = source?.trim() ?? ''
  if (parsed?.source === text) return parsed.list
  let list: BlockList | null = null
  for (const entry of text.split(',').map((e) => e.trim()).filter(Boolean)) {
    const [address, prefix] = entry.split('/')
    const ip = normalize(address)
    const family = ip ? isIP(ip) : 0
    const bits = prefix === undefined ? (family === 4 ? 32 : 128) : Number(prefix)
    if (!ip || !Number.isInteger(bits) || bits < 0 || bits > (family === 4 ? 32 : 128) || (prefix !== undefined && !/^\d+$/.test(prefix))) {
      // Ignored, never guessed at: an entry we cannot read trusts nobody.
      console.error(`[toolroom] TOOLROOM_TRUSTED_PROXIES: "${entry.slice(0, 100)}" is not an IP address or CIDR; ignored`)
      continue
    }
    list ??= new BlockList()
    list.addSubnet(ip, bits, family === 4 ? 'ipv4' : 'ipv6')
  }
  parsed = { source: text, list }
  return list
}

let proofFor: { key: string; proof: string } | null = null

function peerProof(): string | null {
  const key = process.env.TOOLROOM_SECRET_KEY
  if (!key) return null
  if (proofFor?.key !== key) {
    const derived = hkdfSync('sha256', Buffer.from(key, 'utf8'), createHash('sha256').update('toolroom').digest(), 'front peer address', 32)
    proofFor = { key, proof: Buffer.from(derived).toString('base64url') }
  }
  return proofFor.proof
}
