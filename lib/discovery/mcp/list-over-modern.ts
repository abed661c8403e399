// Listing a server that speaks MCP 2026-07-28 (no initialize, no session: every request carries its
// revision in `_meta`) with SDK v2's client pinned to that revision: server/discover, then tools/list
// page after page, then the compliance probes as requests of the same revision. A server of an
// earlier revision answers the pinned client's server/discover with something that is not the
// revision's answer, and the attempt fails over to the 2025-era transports (the revision's
// "Backward Compatibility": a modern request first, then the legacy handshake).
import 'server-only'
import { Client, ProtocolError, SdkHttpError, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import { z } from 'zod'
import type { ProbeRequester } from './compliance-probes'
import { runComplianceProbes } from './compliance-probes'
import { AttemptError } from './errors'
import { type AttemptContext, CLIENT_INFO, type Listing, listAllPages } from './listing'
import { anySignal, withTimeout } from './signals-and-timers'
import { excerptOf, isObject } from '@/lib/json/unknown-values'

export const MODERN_REVISION = '2026-07-28'

/** One line saying how the modern client failed: the server's JSON-RPC error, an HTTP status, or the SDK's own reason. */
export function describeModernError(e: unknown): string {
  if (e instanceof ProtocolError) return excerptOf(`JSON-RPC error ${e.code}: ${e.message}`, 300)
  if (e instanceof SdkHttpError) return excerptOf(`HTTP ${e.status}: ${e.message}`, 300)
  if (e instanceof Error) return excerptOf(e.message, 300)
  return excerptOf(String(e), 300)
}

export async function listOverModern(url: URL, ctx: AttemptContext): Promise<Listing> {
  const transport = new StreamableHTTPClientTransport(url, {
    fetch: (input, init) =>
      ctx.fetch(input as string | URL, { ...init, signal: anySignal(init?.signal ?? undefined, ctx.signal) }, { timeoutMs: ctx.requestTimeoutMs }),
    requestInit: { headers: ctx.headers },
  })
  const client = new Client(CLIENT_INFO, { versionNegotiation: { mode: { pin: MODERN_REVISION }, probe: { timeoutMs: ctx.requestTimeoutMs } } })
  client.onerror = () => {}
  const requestOptions = { timeout: ctx.requestTimeoutMs, signal: ctx.signal }
  let step: 'initialize' | 'tools/list' = 'initialize'
  try {
    await withTimeout(client.connect(transport, requestOptions), 2 * ctx.requestTimeoutMs, `no answer within ${2 * ctx.requestTimeoutMs} ms`)
    step = 'tools/list'
    const rawTools = await listAllPages(
      (cursor) => client.request({ method: 'tools/list', params: cursor !== undefined ? { cursor } : {} }, requestOptions),
      ctx,
    )
    const probes = ctx.probeOverSse ? await runComplianceProbes(probeRequester(client, requestOptions)).catch(() => undefined) : undefined
    const info = client.getServerVersion()
    return {
      transport: 'streamable-http-2026-07-28',
      url,
      ...(info ? { serverInfo: { name: info.name, version: info.version } } : {}),
      protocolVersion: MODERN_REVISION,
      rawTools,
      ...(probes ? { probes } : {}),
    }
  } catch (e) {
    if (e instanceof AttemptError) throw e
    throw new AttemptError(step, describeModernError(e), step === 'tools/list' && e instanceof ProtocolError)
  } finally {
    await client.close().catch(() => {})
  }
}

const AnyResult = z.unknown()

function jsonRpcErrorIn(text: string | undefined): { code: number; message: string } | null {
  try {
    const error = (JSON.parse(text ?? '') as { error?: { code?: unknown; message?: unknown } }).error
    return typeof error?.code === 'number' ? { code: error.code, message: typeof error.message === 'string' ? error.message : '' } : null
  } catch {
    return null
  }
}

// Under this revision a server answers an unknown method with HTTP 404 and -32601 (streamable HTTP,
// "Protocol Version Header"): the client hands back the JSON-RPC error, which is what the checklist reads.
function probeRequester(client: Client, requestOptions: { timeout: number; signal?: AbortSignal }): ProbeRequester {
  return async (method, params) => {
    try {
      // The probe's method is no spec method: the client then wants the result's schema; any answer will do.
      const result: unknown = await client.request({ method, params } as never, AnyResult, requestOptions)
      return { kind: 'result', isError: isObject(result) && result.isError === true }
    } catch (e) {
      if (e instanceof ProtocolError) return { kind: 'jsonrpc-error', code: e.code, message: e.message }
      if (e instanceof SdkHttpError) {
        const text = typeof e.data.text === 'string' ? e.data.text : undefined
        const answered = jsonRpcErrorIn(text)
        // 404 is this revision's status for an unknown method, so it is not held against the server.
        if (answered && (e.status === 404 || e.status === 400)) return { kind: 'jsonrpc-error', code: answered.code, message: answered.message }
        return { kind: 'http-error', httpStatus: e.status, body: excerptOf(text ?? e.message, 200) }
      }
      return { kind: 'unreachable', detail: describeModernError(e) }
    }
  }
}
