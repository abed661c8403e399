// The one place that decides which address a request came from (sign-in and password-change
// limits, the audit log). `X-Forwarded-For` is written by whoever sends the request, so it is only
// believed hop by hop from the right, and only while the hop that wrote it is a proxy the operator
// named in TOOLROOM_TRUSTED_PROXIES (IPs and CIDRs; none by default; parsed by lib/config.ts).
//
// Next.js hides the socket from route handlers, and keeps a client's own X-Forwarded-For instead of
// recording its peer, so the lean gateway front (lib/gateway/server.ts), which owns the public
// socket, tells Next.js the peer in a private header, with a proof only processes holding
// TOOLROOM_SECRET_KEY can make; it overwrites any copy a client sent. Without the front, Next.js
// must only be reachable through the trusted proxies; with none configured the address is unknown.
import 'server-only'
import { createHash, hkdfSync, timingSafeEqual } from 'node:crypto'
import type { BlockList } from 'node:net'
import { type Config, config } from '@/lib/config'
import { isTrustedAddress, normalizeAddress } from '@/lib/net/trusted-proxies'

type ProxyConfig = Pick<Config, 'TOOLROOM_TRUSTED_PROXIES'>

export const PEER_ADDRESS_HEADER = 'x-toolroom-peer-address'
export const PEER_PROOF_HEADER = 'x-toolroom-peer-proof'

/** Headers the front puts on every request it passes on, replacing any a client sent. */
export function frontPeerHeaders(remoteAddress: string | undefined): Record<string, string> {
  const proof = peerProof()
  if (!proof || !remoteAddress) return { [PEER_ADDRESS_HEADER]: '', [PEER_PROOF_HEADER]: '' }
  return { [PEER_ADDRESS_HEADER]: remoteAddress, [PEER_PROOF_HEADER]: proof }
}

/** The client's address, or null when it cannot be known (no front, no trusted proxy). */
export function clientAddress(request: Request | Headers, from: ProxyConfig = config()): string | null {
  const headers = request instanceof Headers ? request : request.headers
  const trusted = from.TOOLROOM_TRUSTED_PROXIES ?? null
  const forwarded = (headers.get('x-forwarded-for') ?? '')
    .split(',')
    .map((hop) => hop.trim())
    .filter(Boolean)
  const peer = frontPeer(headers)
  if (peer) return walk(peer, forwarded, trusted)
  // No front: whoever connected is assumed to be one of the trusted proxies (README, "Web security").
  if (!trusted || forwarded.length === 0) return null
  const nearest = normalizeAddress(forwarded[forwarded.length - 1])
  return nearest ? walk(nearest, forwarded.slice(0, -1), trusted) : null
}

/** Whether the request came through the lean front (it carries the front's proof), which then wrote its forwarding headers. */
export function cameThroughFront(headers: Headers): boolean {
  return frontPeer(headers) !== null
}

/** Whether TOOLROOM_TRUSTED_PROXIES names any proxy (without the front, Next.js is then reachable only through them). */
export function hasTrustedProxies(from: ProxyConfig = config()): boolean {
  return Boolean(from.TOOLROOM_TRUSTED_PROXIES)
}

/** Whether `address` (a socket's peer) is one of TOOLROOM_TRUSTED_PROXIES. */
export function isTrustedProxy(address: string | undefined, from: ProxyConfig = config()): boolean {
  const trusted = from.TOOLROOM_TRUSTED_PROXIES
  const ip = address ? normalizeAddress(address) : null
  return trusted != null && ip !== null && isTrustedAddress(trusted, ip)
}

/** From the peer leftwards: every trusted hop is believed about the hop before it; the first untrusted one is the client. */
function walk(peer: string, forwarded: string[], trusted: BlockList | null): string {
  let address = peer
  for (let i = forwarded.length - 1; i >= 0 && trusted && isTrustedAddress(trusted, address); i--) {
    const previous = normalizeAddress(forwarded[i])
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
  return normalizeAddress(headers.get(PEER_ADDRESS_HEADER) ?? '')
}

let proofFor: { key: string; proof: string } | null = null

function peerProof(): string | null {
  const key = config().TOOLROOM_SECRET_KEY
  if (!key) return null
  if (proofFor?.key !== key) {
    const derived = hkdfSync('sha256', Buffer.from(key, 'utf8'), createHash('sha256').update('toolroom').digest(), 'front peer address', 32)
    proofFor = { key, proof: Buffer.from(derived).toString('base64url') }
  }
  return proofFor.proof
}
