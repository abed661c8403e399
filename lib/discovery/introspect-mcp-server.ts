// MCP introspection (docs/design/discovery.md#mcp-servers, language-operator seed): wait until GET /health answers
// {"status":"ok"}, then initialize and tools/list (every page) over streamable HTTP, falling back to
// SSE and to plain stateless JSON-RPC POSTs; every tool is kept as the server described it, with a
// compliance report against the LanguageTool checklist. All traffic goes through the guarded fetch.
// The steps live in ./mcp/, one concern a file; this file puts them together.
import type { DiscoveredMcpTool } from '@/lib/effective-tools/catalog-tools'
import { probeComplianceOverPost, type ComplianceProbeResult } from './mcp/compliance-probes'
import { buildComplianceReport, type ComplianceObservations, type ComplianceReport } from './mcp/compliance-report'
import { throwIfAborted } from './mcp/errors'
import type { AttemptContext, McpTargetTransport, McpTransportUsed } from './mcp/listing'
import { listOverTransports, type RememberedTransport } from './mcp/list-over-transports'
import { normalizeTools } from './mcp/normalize-tools'
import { mcpTargetUrls } from './mcp/target-urls'
import { isObject } from '@/lib/json/unknown-values'
import { waitForHealth } from './mcp/wait-for-health'
import type { GuardedFetch } from '@/lib/outbound/guarded-fetch'

export { McpIntrospectionError, type McpIntrospectionStep } from './mcp/errors'
export type { McpTargetTransport, McpTransportUsed } from './mcp/listing'
export type { RememberedTransport } from './mcp/list-over-transports'
export { normalizeTools } from './mcp/normalize-tools'
export { mcpTargetUrls } from './mcp/target-urls'

export interface McpIntrospectionTarget {
  /** The MCP endpoint (`http://host:8080/mcp`) or the server's base URL (`http://host:8080`, meaning `/mcp`). */
  endpoint: string
  /** The transport to try first; the others are tried after it. */
  transport: McpTargetTransport
  /** Sent with every request (authorization, for example). */
  headers?: Record<string, string>
  /** How the server was reached last time: that transport is tried first (one attempt instead of two for a 2025-era server). */
  remembered?: RememberedTransport
}

export interface McpIntrospectionOptions {
  fetch: GuardedFetch
  /** Longest wait for GET /health to answer {"status":"ok"} (default 15 s). */
  readinessTimeoutMs?: number
  /** Bound of each request (default 10 s). */
  requestTimeoutMs?: number
  /** Most tools/list pages followed (default 100); more fails the introspection. */
  maxPages?: number
  /** Most tools accepted (default 2000); more fails the introspection. */
  maxTools?: number
  signal?: AbortSignal
  /** Probe tools/call and an unknown method for the compliance report (default true). */
  probeCompliance?: boolean
}

export interface McpIntrospection {
  health: 'ok' | 'absent'
  transport: McpTransportUsed
  /** Where that transport reached the server: the MCP endpoint, or the SSE stream's URL. */
  url: string
  serverInfo?: { name: string; version: string }
  protocolVersion?: string
  /** In server order, as the server described them. */
  tools: DiscoveredMcpTool[]
  /** Entries left out: no usable name, no canonical id, or a name (or canonical id) already listed. */
  refused: Array<{ name: string; reason: string }>
  compliance: ComplianceReport
  timings: { readyMs: number; listMs: number }
}

const DEFAULTS = { readinessTimeoutMs: 15_000, requestTimeoutMs: 10_000, maxPages: 100, maxTools: 2_000 }

export async function introspectMcpServer(target: McpIntrospectionTarget, options: McpIntrospectionOptions): Promise<McpIntrospection> {
  const settings = {
    readinessTimeoutMs: options.readinessTimeoutMs ?? DEFAULTS.readinessTimeoutMs,
    requestTimeoutMs: options.requestTimeoutMs ?? DEFAULTS.requestTimeoutMs,
    maxPages: options.maxPages ?? DEFAULTS.maxPages,
    maxTools: options.maxTools ?? DEFAULTS.maxTools,
  }
  const urls = mcpTargetUrls(target.endpoint)
  const headers = { ...target.headers }

  const readyStart = performance.now()
  const readiness = await waitForHealth(urls.health, headers, options.fetch, settings, options.signal)
  const readyMs = Math.round(performance.now() - readyStart)

  const listStart = performance.now()
  const ctx: AttemptContext = {
    fetch: options.fetch,
    headers,
    ...settings,
    signal: options.signal,
    probeOverSse: options.probeCompliance !== false,
  }
  const listing = await listOverTransports(target.transport, urls, ctx, target.remembered)
  const listMs = Math.round(performance.now() - listStart)

  const { tools, refused } = normalizeTools(listing.rawTools)

  let probes: ComplianceProbeResult | undefined = listing.probes
  let probeSkipped: string | undefined
  if (options.probeCompliance === false) probeSkipped = 'compliance probes were turned off'
  else if (listing.transport === 'sse') {
    // An SSE server answers on its stream only: plain POSTs cannot probe it.
    if (!probes) probeSkipped = 'the probes over the SSE connection did not run'
  } else if (!probes) {
    probes = await probeComplianceOverPost(listing.url.href, {
      fetch: options.fetch,
      headers,
      timeoutMs: settings.requestTimeoutMs,
      signal: options.signal,
    })
  }
  throwIfAborted(options.signal)

  const observations: ComplianceObservations = {
    initialize: { transport: listing.transport, protocolVersion: listing.protocolVersion, serverName: listing.serverInfo?.name },
    tools: listing.rawTools.map((t) => (isObject(t) ? { name: t.name, inputSchema: t.inputSchema } : { name: undefined, inputSchema: undefined })),
    health: { state: readiness.health, detail: readiness.detail },
    ...(probes ?? {}),
    ...(probeSkipped ? { probeSkipped } : {}),
  }

  return {
    health: readiness.health,
    transport: listing.transport,
    url: listing.url.href,
    ...(listing.serverInfo ? { serverInfo: listing.serverInfo } : {}),
    ...(listing.protocolVersion ? { protocolVersion: listing.protocolVersion } : {}),
    tools,
    refused,
    compliance: buildComplianceReport(observations),
    timings: { readyMs, listMs },
  }
}
