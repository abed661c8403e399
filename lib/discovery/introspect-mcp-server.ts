// MCP introspection (SPEC §3, language-operator seed): wait until GET /health answers
// {"status":"ok"}, then initialize and tools/list (every page) over streamable HTTP, falling back to
// SSE and to plain stateless JSON-RPC POSTs; every tool is kept as the server described it, with a
// compliance report against the LanguageTool checklist. All traffic goes through the guarded fetch.
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { SseError, SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js'
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js'
import { ErrorCode, LATEST_PROTOCOL_VERSION, McpError } from '@modelcontextprotocol/sdk/types.js'
import { z } from 'zod'
import type { DiscoveredMcpTool } from '@/lib/effective-tools/catalog-tools'
import type { McpToolAnnotations } from '@/lib/effective-tools/derive-side-effects'
import { canonicalMcpToolId } from '@/lib/tools/naming'
import {
  buildComplianceReport,
  type ComplianceObservations,
  type ComplianceProbeResult,
  type ComplianceReport,
  excerptOf,
  MCP_POST_HEADERS,
  probeAnswerFromHttp,
  probeComplianceOverPost,
  type ProbeRequester,
  readJsonRpcAnswer,
  runComplianceProbes,
} from './mcp-compliance'
import { type GuardedFetch, OutboundError } from './outbound/guarded-fetch'

export type McpTargetTransport = 'streamable-http' | 'sse'
export type McpTransportUsed = 'streamable-http' | 'sse' | 'stateless-post'

export interface McpIntrospectionTarget {
  /** The MCP endpoint (`http://host:8080/mcp`) or the server's base URL (`http://host:8080`, meaning `/mcp`). */
  endpoint: string
  /** The transport to try first; the others are tried after it. */
  transport: McpTargetTransport
  /** Sent with every request (authorization, for example). */
  headers?: Record<string, string>
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
  serverInfo?: { name: string; version: string }
  protocolVersion?: string
  /** In server order, as the server described them. */
  tools: DiscoveredMcpTool[]
  /** Entries left out: no usable name, no canonical id, or a name (or canonical id) already listed. */
  refused: Array<{ name: string; reason: string }>
  compliance: ComplianceReport
  timings: { readyMs: number; listMs: number }
}

export type McpIntrospectionStep = 'endpoint' | 'readiness' | 'initialize' | 'tools/list' | 'aborted'

/** Why an introspection failed; `message` names the step and the reason. */
export class McpIntrospectionError extends Error {
  constructor(
    readonly step: McpIntrospectionStep,
    message: string,
  ) {
    super(message)
    this.name = 'McpIntrospectionError'
  }
}

const DEFAULTS = { readinessTimeoutMs: 15_000, requestTimeoutMs: 10_000, maxPages: 100, maxTools: 2_000 }
const BACKOFF_START_MS = 250
const BACKOFF_CAP_MS = 4_000
/** Placeholder server name for checking that a tool name has a canonical form. */
const CANONICAL_CHECK_PREFIX = 'server'
const CLIENT_INFO = { name: 'toolroom-discovery', version: '1.0.0' }

/** Where a target's routes are: health at the server root, MCP at the endpoint (or `/mcp`), SSE candidates. */
export function mcpTargetUrls(endpoint: string): { health: URL; mcp: URL; sse: URL[] } {
  let url: URL
  try {
    url = new URL(endpoint)
  } catch {
    throw new McpIntrospectionError('endpoint', `endpoint "${endpoint}" is not a valid URL`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new McpIntrospectionError('endpoint', `endpoint "${endpoint}" is not an http(s) URL`)
  url.hash = ''
  const health = new URL('/health', url)
  const mcp = new URL(url)
  if (mcp.pathname === '/') mcp.pathname = '/mcp'
  const sse = [new URL(url), new URL('/sse', url)].filter((u, i, all) => all.findIndex((o) => o.href === u.href) === i)
  return { health, mcp, sse }
}

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
  const listing = await listOverTransports(target.transport, urls, ctx)
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
    ...(listing.serverInfo ? { serverInfo: listing.serverInfo } : {}),
    ...(listing.protocolVersion ? { protocolVersion: listing.protocolVersion } : {}),
    tools,
    refused,
    compliance: buildComplianceReport(observations),
    timings: { readyMs, listMs },
  }
}

// ---------------------------------------------------------------------------------------------
// Readiness

interface Readiness {
  health: 'ok' | 'absent'
  detail: string
}

async function waitForHealth(
  url: URL,
  headers: Record<string, string>,
  fetch: GuardedFetch,
  settings: { readinessTimeoutMs: number; requestTimeoutMs: number },
  signal: AbortSignal | undefined,
): Promise<Readiness> {
  const started = Date.now()
  const deadline = started + settings.readinessTimeoutMs
  let delay = BACKOFF_START_MS
  let attempts = 0
  let last = 'none'
  for (;;) {
    throwIfAborted(signal)
    attempts++
    const remaining = Math.max(deadline - Date.now(), 50)
    try {
      const response = await fetch(
        url,
        { method: 'GET', headers: { ...headers, accept: 'application/json' }, signal },
        { timeoutMs: Math.min(settings.requestTimeoutMs, remaining) },
      )
      const text = await response.text()
      if (response.status === 404) {
        return { health: 'absent', detail: `GET ${url.pathname} answered 404: the server has no /health route` }
      }
      if (response.status === 200 && healthIsOk(text)) {
        const took = Date.now() - started
        return { health: 'ok', detail: `GET ${url.pathname} answered 200 {"status":"ok"} (attempt ${attempts}, after ${took} ms)` }
      }
      last = `HTTP ${response.status}${text ? ` ${excerptOf(text, 120)}` : ''}`
    } catch (e) {
      throwIfAborted(signal)
      if (e instanceof OutboundError && e.failure === 'refused') {
        throw new McpIntrospectionError('readiness', `readiness check refused by the outbound guard: GET ${url.href}: ${e.message}`)
      }
      last = e instanceof OutboundError ? `${e.failure}: ${e.message}` : describeError(e)
    }
    const wait = Math.min(delay, deadline - Date.now())
    if (wait <= 0) {
      throw new McpIntrospectionError(
        'readiness',
        `readiness timed out after ${settings.readinessTimeoutMs} ms: GET ${url.href} never answered 200 {"status":"ok"} (${attempts} attempt${attempts === 1 ? '' : 's'}); last answer: ${last}`,
      )
    }
    await sleep(wait, signal)
    delay = Math.min(delay * 2, BACKOFF_CAP_MS)
  }
}

function healthIsOk(text: string): boolean {
  try {
    const body = JSON.parse(text) as unknown
    return isObject(body) && body.status === 'ok'
  } catch {
    return false
  }
}

// ---------------------------------------------------------------------------------------------
// Listing over the transports, in order

interface AttemptContext {
  fetch: GuardedFetch
  headers: Record<string, string>
  requestTimeoutMs: number
  maxPages: number
  maxTools: number
  signal?: AbortSignal
  probeOverSse: boolean
}

interface Listing {
  transport: McpTransportUsed
  url: URL
  serverInfo?: { name: string; version: string }
  protocolVersion?: string
  rawTools: unknown[]
  /** Compliance probes already made over the connection (SSE, where plain POSTs cannot reach the server). */
  probes?: ComplianceProbeResult
}

/** A failed attempt: at which step, and whether the server answered that step with a JSON-RPC error. */
class AttemptError extends Error {
  constructor(
    readonly step: 'initialize' | 'tools/list',
    message: string,
    readonly answered = false,
  ) {
    super(message)
  }
}

interface Attempt {
  transport: McpTransportUsed
  url: URL
  label: string
  run: () => Promise<Listing>
}

async function listOverTransports(first: McpTargetTransport, urls: { mcp: URL; sse: URL[] }, ctx: AttemptContext): Promise<Listing> {
  const streamable: Attempt = { transport: 'streamable-http', url: urls.mcp, label: `streamable-http (POST ${urls.mcp.href})`, run: () => listOverSdk('streamable-http', urls.mcp, ctx) }
  const sse: Attempt[] = urls.sse.map((url) => ({ transport: 'sse', url, label: `sse (GET ${url.href})`, run: () => listOverSdk('sse', url, ctx) }))
  const stateless: Attempt = { transport: 'stateless-post', url: urls.mcp, label: `stateless-post (POST ${urls.mcp.href})`, run: () => listOverPlainPosts(urls.mcp, ctx) }
  const attempts = first === 'sse' ? [...sse, streamable, stateless] : [streamable, ...sse, stateless]

  const failures: Array<{ attempt: Attempt; error: AttemptError }> = []
  for (const attempt of attempts) {
    throwIfAborted(ctx.signal)
    try {
      return await attempt.run()
    } catch (e) {
      throwIfAborted(ctx.signal)
      const error = e instanceof AttemptError ? e : new AttemptError('initialize', describeError(e))
      failures.push({ attempt, error })
      // The server speaks MCP and refused tools/list itself: another transport will not do better.
      if (error.step === 'tools/list' && error.answered) break
    }
  }
  const listed = failures.find((f) => f.error.step === 'tools/list')
  if (listed) {
    const others = failures.filter((f) => f !== listed).map((f) => `${f.attempt.label}: ${f.error.message}`)
    throw new McpIntrospectionError(
      'tools/list',
      `tools/list failed over ${listed.attempt.label}: ${listed.error.message}${others.length ? `; other transports: ${others.join('; ')}` : ''}`,
    )
  }
  throw new McpIntrospectionError('initialize', `initialize failed over all transports: ${failures.map((f) => `${f.attempt.label}: ${f.error.message}`).join('; ')}`)
}

/** tools/list results, page after page, bounded. */
async function listAllPages(page: (cursor: string | undefined) => Promise<unknown>, ctx: AttemptContext): Promise<unknown[]> {
  const tools: unknown[] = []
  const seen = new Set<string>()
  let cursor: string | undefined
  for (let n = 1; ; n++) {
    if (n > ctx.maxPages) throw new AttemptError('tools/list', `more than ${ctx.maxPages} pages (maxPages)`)
    const result = await page(cursor)
    if (!isObject(result) || !Array.isArray(result.tools)) throw new AttemptError('tools/list', `page ${n} has no "tools" array: ${excerptOf(safeJson(result))}`)
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

async function listOverSdk(kind: 'streamable-http' | 'sse', url: URL, ctx: AttemptContext): Promise<Listing> {
  const transportOptions = { fetch: sdkFetch(ctx, kind), requestInit: { headers: ctx.headers } }
  const transport = kind === 'sse' ? new SSEClientTransport(url, transportOptions) : new StreamableHTTPClientTransport(url, transportOptions)
  // The Client does not expose the negotiated protocol version; it hands it to the transport.
  let protocolVersion: string | undefined
  const setProtocolVersion = transport.setProtocolVersion.bind(transport)
  transport.setProtocolVersion = (version: string) => {
    protocolVersion = version
    setProtocolVersion(version)
  }
  const client = new Client(CLIENT_INFO, { capabilities: {} })
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

/** The last fallback: initialize and tools/list as plain JSON-RPC POSTs, each answered by JSON or an SSE frame. */
async function listOverPlainPosts(url: URL, ctx: AttemptContext): Promise<Listing> {
  const headers: Record<string, string> = { ...ctx.headers, ...MCP_POST_HEADERS }
  const limits = { timeoutMs: ctx.requestTimeoutMs }
  let nextId = 1
  let sessionId: string | undefined
  const call = async (step: 'initialize' | 'tools/list', method: string, params: Record<string, unknown>): Promise<unknown> => {
    const id = nextId++
    let response: Response
    try {
      response = await ctx.fetch(url, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', id, method, params }), signal: ctx.signal }, limits)
    } catch (e) {
      throw new AttemptError(step, describeError(e))
    }
    // A session server hands out its session with the answer to initialize.
    const session = response.headers.get('mcp-session-id')
    if (session && !sessionId) {
      sessionId = session
      headers['mcp-session-id'] = session
    }
    const answer = await readJsonRpcAnswer(response, id).catch((e: unknown) => {
      throw new AttemptError(step, `reading the answer to ${method}: ${describeError(e)}`)
    })
    const probe = probeAnswerFromHttp(answer)
    switch (probe.kind) {
      case 'result':
        if (answer.status >= 300) throw new AttemptError(step, `${method} answered HTTP ${answer.status}`)
        return answer.message?.result
      case 'jsonrpc-error':
        throw new AttemptError(step, `${method} answered JSON-RPC error ${probe.code} "${probe.message}" (HTTP ${answer.status})`, answer.status < 300)
      case 'http-error':
        throw new AttemptError(step, `${method} answered HTTP ${probe.httpStatus}${probe.body ? `: ${probe.body}` : ''}`)
      default:
        throw new AttemptError(step, `${method} got no JSON-RPC answer (HTTP ${answer.status}): ${answer.excerpt || 'empty body'}`)
    }
  }
  try {
    const init = await call('initialize', 'initialize', { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: CLIENT_INFO })
    if (!isObject(init)) throw new AttemptError('initialize', `initialize answered a result that is not an object: ${excerptOf(safeJson(init))}`)
    const protocolVersion = typeof init.protocolVersion === 'string' ? init.protocolVersion : undefined
    const info = isObject(init.serverInfo) && typeof init.serverInfo.name === 'string' ? init.serverInfo : undefined
    if (protocolVersion) headers['mcp-protocol-version'] = protocolVersion
    await ctx
      .fetch(url, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }), signal: ctx.signal }, limits)
      .then((r) => r.body?.cancel())
      .catch(() => {})
    const rawTools = await listAllPages((cursor) => call('tools/list', 'tools/list', cursor !== undefined ? { cursor } : {}), ctx)
    return {
      transport: 'stateless-post',
      url,
      ...(info ? { serverInfo: { name: String(info.name), version: typeof info.version === 'string' ? info.version : '' } } : {}),
      protocolVersion,
      rawTools,
    }
  } finally {
    if (sessionId) {
      await ctx
        .fetch(url, { method: 'DELETE', headers, signal: ctx.signal }, limits)
        .then((r) => r.body?.cancel())
        .catch(() => {})
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Tools as stored

/**
 * The usable entries of a tools/list answer, in server order, each kept as the server described it
 * (name, title, description, input and output schemas, annotations); the others with the reason.
 */
export function normalizeTools(raw: unknown[]): { tools: DiscoveredMcpTool[]; refused: Array<{ name: string; reason: string }> } {
  const tools: DiscoveredMcpTool[] = []
  const refused: Array<{ name: string; reason: string }> = []
  const byName = new Map<string, number>()
  const byCanonical = new Map<string, string>()
  raw.forEach((entry, index) => {
    const position = `entry ${index + 1} of tools/list`
    if (!isObject(entry)) {
      refused.push({ name: '', reason: `${position} is not an object` })
      return
    }
    const name = entry.name
    if (typeof name !== 'string' || name.trim() === '') {
      refused.push({ name: typeof name === 'string' ? name : '', reason: `${position} has no name` })
      return
    }
    const earlier = byName.get(name)
    if (earlier !== undefined) {
      refused.push({ name, reason: `duplicate name: ${position} repeats entry ${earlier + 1}` })
      return
    }
    byName.set(name, index)
    const id = canonicalMcpToolId(CANONICAL_CHECK_PREFIX, name)
    if (!id) {
      refused.push({ name, reason: `no canonical tool id can be made of the name "${name}"` })
      return
    }
    const segment = id.slice(CANONICAL_CHECK_PREFIX.length + 1)
    const clash = byCanonical.get(segment)
    if (clash !== undefined) {
      refused.push({ name, reason: `its canonical name "${segment}" is already taken by the tool "${clash}"` })
      return
    }
    byCanonical.set(segment, name)
    const tool: DiscoveredMcpTool = { name }
    if (typeof entry.title === 'string') tool.title = entry.title
    if (typeof entry.description === 'string') tool.description = entry.description
    if (entry.inputSchema !== undefined) tool.inputSchema = entry.inputSchema
    if (entry.outputSchema !== undefined) tool.outputSchema = entry.outputSchema
    if (isObject(entry.annotations)) tool.annotations = entry.annotations as McpToolAnnotations
    tools.push(tool)
  })
  return { tools, refused }
}

// ---------------------------------------------------------------------------------------------
// Helpers

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

function safeJson(v: unknown): string {
  try {
    return JSON.stringify(v) ?? String(v)
  } catch {
    return String(v)
  }
}

/** One line saying what went wrong, never a stack; long server bodies are cut short. */
function describeError(e: unknown): string {
  if ((e instanceof StreamableHTTPError || e instanceof SseError) && e.code !== undefined && e.code > 0) {
    return excerptOf(`HTTP ${e.code}: ${e.message}`, 300)
  }
  if (e instanceof Error) {
    const cause = (e as { cause?: unknown }).cause
    const causeText = cause instanceof Error && !e.message.includes(cause.message) ? ` (${cause.message})` : ''
    return excerptOf(`${e.message}${causeText}`, 300)
  }
  return excerptOf(String(e), 300)
}

function throwIfAborted(signal: AbortSignal | undefined) {
  if (signal?.aborted) {
    const reason = signal.reason instanceof Error ? signal.reason.message : signal.reason !== undefined ? String(signal.reason) : 'aborted'
    throw new McpIntrospectionError('aborted', `introspection aborted: ${reason}`)
  }
}

function anySignal(...signals: Array<AbortSignal | undefined>): AbortSignal | undefined {
  const present = signals.filter((s): s is AbortSignal => !!s)
  if (present.length <= 1) return present[0]
  return AbortSignal.any(present)
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer)
      signal?.removeEventListener('abort', done)
      resolve()
    }
    const timer = setTimeout(done, ms)
    signal?.addEventListener('abort', done, { once: true })
  })
}

async function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms)
  })
  try {
    return await Promise.race([promise, timeout])
  } finally {
    clearTimeout(timer)
  }
}
