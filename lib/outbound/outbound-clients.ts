// The outbound clients of each process, configured in this one place: TOOLROOM_OUTBOUND_ALLOW (the SSRF
// allow-list of all of them), TOOLROOM_OUTBOUND_MAX_BYTES (discovery's answers) and
// TOOLROOM_GATEWAY_MAX_RESPONSE_BYTES (the gateway's), from lib/config.ts. Each is made once per
// process, on first use.
import 'server-only'
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js'
import { config } from '@/lib/config'
import type { AddressPolicy } from '@/lib/net/address-policy'
import { createGuardedFetch, type GuardedFetch } from './guarded-fetch'
import { createSessionFetch } from './session-fetch'

const once = <T>(make: () => T): (() => T) => {
  let value: T | undefined
  return () => (value ??= make())
}

export const outboundPolicy = (): AddressPolicy => config().TOOLROOM_OUTBOUND_ALLOW

const gatewayMaxBytes = () => config().TOOLROOM_GATEWAY_MAX_RESPONSE_BYTES
const GATEWAY_MAX_BYTES_SETTING = 'TOOLROOM_GATEWAY_MAX_RESPONSE_BYTES'

/** Agent listeners and MCP servers under discovery: up to 5 redirects, each hop checked. */
export const discoveryFetch = once((): GuardedFetch =>
  createGuardedFetch(outboundPolicy(), { maxBytes: config().TOOLROOM_OUTBOUND_MAX_BYTES, maxBytesSetting: 'TOOLROOM_OUTBOUND_MAX_BYTES' }),
)

/** REST tools: no redirects (a tool's declared origin and path are all it may reach). */
export const gatewayFetch = once((): GuardedFetch =>
  createGuardedFetch(outboundPolicy(), { maxBytes: gatewayMaxBytes(), maxBytesSetting: GATEWAY_MAX_BYTES_SETTING, maxRedirects: 0 }),
)

/**
 * Upstreams' authorization servers (metadata and token requests): no redirects (a request carrying a
 * client secret goes to the URL the manifest or the metadata names, or nowhere), small answers.
 */
export const idpFetch = once((): GuardedFetch => createGuardedFetch(outboundPolicy(), { maxBytes: 256 * 1024, maxRedirects: 0 }))

/** Webhook receivers: no redirects (a signed delivery goes to the registered URL or nowhere), small answers. */
export const webhookFetch = once((): GuardedFetch => createGuardedFetch(outboundPolicy(), { maxBytes: 64 * 1024, maxRedirects: 0 }))

let sessionFetch: FetchLike | null = null
/** The gateway's pooled MCP sessions (keep-alive node:http agents); `timeoutMs` is fixed by the first caller. */
export function mcpSessionFetch(timeoutMs: number): FetchLike {
  sessionFetch ??= createSessionFetch(outboundPolicy(), { timeoutMs, maxBytes: gatewayMaxBytes(), maxBytesSetting: GATEWAY_MAX_BYTES_SETTING })
  return sessionFetch
}
