// Listing with the MCP SDK Client over streamable HTTP or SSE, with the compliance probes made in the
// same session.
import 'server-only'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js'
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv'
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js'
import { z } from 'zod'
import { createUntrustedAjv } from '@/lib/manifests/untrusted-ajv'
import { probeComplianceOverPost, type ProbeRequester, runComplianceProbes } from './compliance-probes'
import { AttemptError, describeError } from './errors'
import { type AttemptContext, CLIENT_INFO, type Listing, listAllPages } from './listing'
import { anySignal, withTimeout } from './signals-and-timers'
import { isObject } from '@/lib/json/unknown-values'

/**
 * Fetch for the SDK transports: long-lived SSE streams are left unbounded in time (closing the
 * transport ends them). Over streamable HTTP, discovery never needs the server-initiated stream the
 * client opens after `initialized`, so that GET is answered here as "not offered" (405, which the SDK
 * accepts) instead of costing both sides a connection per discovery.
 */
function sdkFetch(ctx: AttemptContext, kind: 'streamable-http' | 'sse'): FetchLike {
  return async (url, init) => {
    const accept = new Headers(init?.headers).get('accept') ?? ''
    const stream = (init?.method ?? 'GET').toUpperCase() === 'GET' && /text\/event-stream/i.test(accept)
    if (stream && kind === 'streamable-http') return new Response(null, { status: 405 })
    const signal = anySignal(init?.signal ?? undefined, ctx.signal)
    return ctx.fetch(url, { ...init, signal }, { timeoutMs: stream ? 0 : ctx.requestTimeoutMs })
  }
}

const LooseResult = z.unknown()

// Each Client otherwise builds its own Ajv instance (formats included), about 0.3 ms of CPU and its
// garbage per discovery; one validator, with its compiled-schema cache, serves them all.
const jsonSchemaValidator = new AjvJsonSchemaValidator(createUntrustedAjv())

export async function listOverSdk(kind: 'streamable-http' | 'sse', url: URL, ctx: AttemptContext): Promise<Listing> {
  const transportOptions = { fetch: sdkFetch(ctx, kind), requestInit: { headers: ctx.headers } }
  const transport = kind === 'sse' ? new SSEClientTransport(url, transportOptions) : new StreamableHTTPClientTransport(url, transportOptions)
  // The Client does not expose the negotiated protocol version; it hands it to the transport.
  let protocolVersion: string | undefined
  const setProtocolVersion = transport.setProtocolVersion.bind(transport)
  transport.setProtocolVersion = (version: string) => {
    protocolVersion = version
    setProtocolVersion(version)
  }
  const client = new Client(CLIENT_INFO, { capabilities: {}, jsonSchemaValidator })
  // Background errors (a GET stream the server does not offer, a dropped stream) are not failures of
  // discovery; a request that fails rejects on its own.
  client.onerror = () => {}
  const requestOptions = { timeout: ctx.requestTimeoutMs, signal: ctx.signal }
  let step: 'initialize' | 'tools/list' = 'initialize'
  try {
    // SSEClientTransport.start() waits for the `endpoint` event without a bound of its own.
    // Opening the stream and initialize are each bounded by requestTimeoutMs.
    const connectBound = 2 * ctx.requestTimeoutMs
    await withTimeout(client.connect(transport, requestOptions), connectBound, `no answer within ${connectBound} ms`)
    step = 'tools/list'
    const rawTools = await listAllPages(
      (cursor) => client.request({ method: 'tools/list', params: cursor !== undefined ? { cursor } : {} }, LooseResult, requestOptions),
      ctx,
    )
    // The probes run in the session already open: an SSE server only answers on its stream; a
    // streamable one is probed with raw POSTs (its HTTP statuses are part of the checklist).
    const probes = !ctx.probeOverSse
      ? undefined
      : kind === 'sse'
        ? await runComplianceProbes(sdkProbeRequester(client, requestOptions)).catch(() => undefined)
        : await probeComplianceOverPost(url.href, {
            fetch: ctx.fetch,
            headers: ctx.headers,
            timeoutMs: ctx.requestTimeoutMs,
            signal: ctx.signal,
            session: { id: (transport as StreamableHTTPClientTransport).sessionId, protocolVersion },
          })
    const info = client.getServerVersion()
    return {
      transport: kind,
      url,
      ...(info ? { serverInfo: { name: info.name, version: info.version } } : {}),
      protocolVersion,
      rawTools,
      ...(probes ? { probes } : {}),
    }
  } catch (e) {
    if (e instanceof AttemptError) throw e
    const answered = e instanceof McpError && !isLocalSdkError(e)
    throw new AttemptError(step, describeError(e), answered)
  } finally {
    // close() does not end a session: DELETE it first (a no-op without a session; 405 is accepted).
    if (transport instanceof StreamableHTTPClientTransport) await transport.terminateSession().catch(() => {})
    await client.close().catch(() => {})
    await transport.close().catch(() => {})
  }
}

/** RequestTimeout and ConnectionClosed are raised by the SDK itself, not answered by the server. */
function isLocalSdkError(e: McpError): boolean {
  return e.code === ErrorCode.RequestTimeout || e.code === ErrorCode.ConnectionClosed
}

function sdkProbeRequester(client: Client, requestOptions: { timeout: number; signal?: AbortSignal }): ProbeRequester {
  return async (method, params) => {
    try {
      const result = await client.request({ method, params } as never, LooseResult, requestOptions)
      return { kind: 'result', isError: isObject(result) && result.isError === true }
    } catch (e) {
      if (e instanceof McpError && !isLocalSdkError(e)) return { kind: 'jsonrpc-error', code: e.code, message: e.message.replace(/^MCP error -?\d+: /, '') }
      return { kind: 'unreachable', detail: describeError(e) }
    }
  }
}
