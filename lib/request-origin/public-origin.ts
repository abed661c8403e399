// The origin people and agents reach Toolroom at, for the addresses it hands out (an agent's
// config.yaml names the gateway there). TOOLROOM_PUBLIC_URL when set. Otherwise the request as the
// public port received it: its Host, and `X-Forwarded-Host`/`-Proto` only where someone trusted wrote
// them, by the rules of lib/request-origin/client-address.ts. A client writes whatever it likes into those, so
// they are believed only
//  - from the lean front (lib/gateway/server.ts; the request carries its proof), which owns the public
//    port and overwrites both: with a client's copies only when its peer is one of
//    TOOLROOM_TRUSTED_PROXIES, else with the Host it was sent and plain http;
//  - without the front, when TOOLROOM_TRUSTED_PROXIES is set: Next.js must then only be reachable
//    through those proxies (as for client addresses, README "Web security").
// A request that names no usable host gets no origin at all, never the address the server itself
// listens on (behind the front that is Next.js's internal port, which no client should learn).
import 'server-only'
import type { IncomingHttpHeaders } from 'node:http'
import { type Config, config } from '@/lib/config'
import { AppError } from '@/lib/errors/app-error'
import { cameThroughFront, hasTrustedProxies, isTrustedProxy } from './client-address'

type OriginConfig = Pick<Config, 'TOOLROOM_PUBLIC_URL' | 'TOOLROOM_TRUSTED_PROXIES'>

/** The origin (`https://toolroom.example.com`) the request reached Toolroom at; a 400 when it names no usable host. */
export function publicOrigin(request: Request, from: OriginConfig = config()): string {
  const origin = requestOrigin(request, from)
  if (!origin) throw new AppError('BAD_REQUEST', HOST_UNUSABLE)
  return origin
}

export const HOST_UNUSABLE =
  'the Host header names no host name or address (name[:port]); send the address you reached Toolroom at, or the operator sets TOOLROOM_PUBLIC_URL'

/** Like publicOrigin, but null where that answers 400. */
export function requestOrigin(request: Request, from: OriginConfig = config()): string | null {
  const configured = configuredOrigin(from.TOOLROOM_PUBLIC_URL)
  if (configured) return configured
  const headers = request.headers
  const url = new URL(request.url)
  const throughFront = cameThroughFront(headers)
  const believed = throughFront || hasTrustedProxies(from)
  // Only a request built in this process (no Host header at all, and not from the front) is taken at its URL's word.
  const ownUrl = !throughFront && !headers.has('host') ? url.host : null
  const host = (believed && hostOf(headers.get('x-forwarded-host'))) || hostOf(headers.get('host')) || ownUrl
  if (!host) return null
  const proto = (believed && protoOf(headers.get('x-forwarded-proto'))) || url.protocol.slice(0, -1)
  return `${proto}://${host}`
}

/**
 * For the front: `X-Forwarded-Host` and `-Proto` as the public port received the request, replacing
 * whatever the client sent unless its peer is a trusted proxy.
 */
export function frontForwardedHeaders(
  headers: IncomingHttpHeaders,
  peer: string | undefined,
  from: OriginConfig = config(),
): { 'x-forwarded-host': string; 'x-forwarded-proto': string } {
  const fromProxy = isTrustedProxy(peer, from)
  const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) ?? null
  return {
    'x-forwarded-host': (fromProxy && hostOf(one(headers['x-forwarded-host']))) || hostOf(one(headers.host)) || '',
    'x-forwarded-proto': (fromProxy && protoOf(one(headers['x-forwarded-proto']))) || 'http',
  }
}

/** For the front itself (node:http): the origin the client reached it at, by the same rules; null when it names no usable host. */
export function frontPublicOrigin(headers: IncomingHttpHeaders, peer: string | undefined, from: OriginConfig = config()): string | null {
  const configured = configuredOrigin(from.TOOLROOM_PUBLIC_URL)
  if (configured) return configured
  const forwarded = frontForwardedHeaders(headers, peer, from)
  return forwarded['x-forwarded-host'] ? `${forwarded['x-forwarded-proto']}://${forwarded['x-forwarded-host']}` : null
}

// lib/config.ts has made sure it is an http(s) URL.
function configuredOrigin(value: string | undefined): string | null {
  return value ? new URL(value).origin : null
}

/** The first (client-side) value of a forwarded header, if it is a host name or address with an optional port. */
function hostOf(value: string | null): string | null {
  const host = value?.split(',')[0].trim().toLowerCase() ?? ''
  if (host.length > 261) return null
  const shaped = /^([a-z0-9]([a-z0-9-]*[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*(:\d{1,5})?$/.test(host) || /^\[[0-9a-f:.]+\](:\d{1,5})?$/.test(host)
  // The shape lets through what no URL can hold (a port over 65535, a bracketed non-address): the URL
  // parser has the last word, so an origin built from the host always parses.
  return shaped && URL.canParse(`http://${host}`) ? host : null
}

function protoOf(value: string | null): 'http' | 'https' | null {
  const proto = value?.split(',')[0].trim().toLowerCase()
  return proto === 'http' || proto === 'https' ? proto : null
}
