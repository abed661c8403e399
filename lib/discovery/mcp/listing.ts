// What every listing attempt shares: the transports, the context an attempt runs in, the listing it
// returns, the client identity it announces, and tools/list followed page after page within bounds.
import type { GuardedFetch } from '@/lib/outbound/guarded-fetch'
import type { ComplianceProbeResult } from './compliance-probes'
import { AttemptError } from './errors'
import { excerptOf, isObject, safeJson } from '@/lib/json/unknown-values'

export type McpTargetTransport = 'streamable-http' | 'sse'
/** `streamable-http-2026-07-28`: streamable HTTP as MCP 2026-07-28 shapes it (no handshake, no session). */
export type McpTransportUsed = 'streamable-http' | 'streamable-http-2026-07-28' | 'sse' | 'stateless-post'

export const CLIENT_INFO = { name: 'toolroom-discovery', version: '1.0.0' }

export interface AttemptContext {
  fetch: GuardedFetch
  headers: Record<string, string>
  requestTimeoutMs: number
  maxPages: number
  maxTools: number
  signal?: AbortSignal
  probeOverSse: boolean
}

export interface Listing {
  transport: McpTransportUsed
  url: URL
  serverInfo?: { name: string; version: string }
  protocolVersion?: string
  rawTools: unknown[]
  /** Compliance probes already made over the connection (SSE, where plain POSTs cannot reach the server). */
  probes?: ComplianceProbeResult
}

/** tools/list results, page after page, bounded. */
export async function listAllPages(page: (cursor: string | undefined) => Promise<unknown>, ctx: AttemptContext): Promise<unknown[]> {
  const tools: unknown[] = []
  const seen = new Set<string>()
  let cursor: string | undefined
  for (let n = 1; ; n++) {
    if (n > ctx.maxPages) throw new AttemptError('tools/list', `more than ${ctx.maxPages} pages (maxPages)`)
    const result = await page(cursor)
    if (!isObject(result) || !Array.isArray(result.tools))
      throw new AttemptError('tools/list', `page ${n} has no "tools" array: ${excerptOf(safeJson(result))}`)
    tools.push(...result.tools)
    if (tools.length > ctx.maxTools) throw new AttemptError('tools/list', `more than ${ctx.maxTools} tools (maxTools)`)
    const next = result.nextCursor
    if (next === undefined || next === null || next === '') return tools
    if (typeof next !== 'string') throw new AttemptError('tools/list', `page ${n} has a nextCursor that is not a string`)
    if (seen.has(next)) throw new AttemptError('tools/list', `page ${n} repeats the cursor "${excerptOf(next, 60)}"`)
    seen.add(next)
    cursor = next
  }
}
