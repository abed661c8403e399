// The lean gateway process: node:http serving `/mcp` with the same handler Next.js mounts at
// app/mcp/route.ts, without the framework's per-request work. With `upstream` set it fronts the
// whole origin: `/mcp` is answered here and every other request is passed to the Next.js server
// unchanged (bodies and answers streamed), so agents and people use one address.
//
// It fronts the public port, so it bounds what one client can hold: headers must arrive within
// `headersMs` (slow-loris), a whole request within `requestMs` (generous: uploads pass through here),
// an /mcp body within `mcpBodyMs`. A connection answered before its body was read (413, or an early
// answer from the web app such as a 401) is closed after the answer instead of being kept alive with
// the rest of the body unread, which stalled the next request on it; the close lingers
// (lib/http/lingering-close.ts), so a client still sending reads the answer instead of a reset.
import 'server-only'
import http from 'node:http'
import type { Socket } from 'node:net'
import { config } from '@/lib/config'
import { frontPeerHeaders } from '@/lib/request-origin/client-address'
import { closeAfterAnswer, lingeringClose } from '@/lib/http/lingering-close'
import { answerClientError, refuseRequestTarget } from '@/lib/http/request-target'
import { frontForwardedHeaders, frontPublicOrigin } from '@/lib/request-origin/public-origin'
import { withSpan } from '@/lib/observability/tracing'
import { Readable } from 'node:stream'
import { maxMcpBodyBytes, type McpAnswer, tooLarge } from './mcp-http-answer'
import { RPC } from './tool-errors'

// The MCP pipeline (the SDK, the checks, the database client: most of this process's modules, about
// 0.7 s of CPU to load) is loaded on the first /mcp request or readiness probe, not at start: the
// front answers and passes the portal's requests on before, which is what `npm start`'s ready waits
// for (BENCHMARKS.md, "Start and stop").
let mcpPipeline: Promise<typeof import('@/lib/gateway/mcp-handler')> | null = null
export const loadMcpPipeline = () => (mcpPipeline ??= import('@/lib/gateway/mcp-handler'))

export interface GatewayTimeouts {
  /** How long a client may take to send a request's headers. */
  headersMs: number
  /** How long a client may take to send a whole request, body included (any path). */
  requestMs: number
  /** How long a client may take to send the body of an /mcp request. */
  mcpBodyMs: number
  /** How often the server checks those (Node's connectionsCheckingInterval). */
  checkEveryMs: number
}

export interface GatewayServerOptions {
  port: number
  host?: string
  /** Origin of the Next.js server to pass everything but /mcp to, e.g. `http://127.0.0.1:3001`. */
  upstream?: string
  timeouts?: Partial<GatewayTimeouts>
}

export function gatewayTimeouts(overrides: Partial<GatewayTimeouts> = {}): GatewayTimeouts {
  const { TOOLROOM_GATEWAY_HEADERS_TIMEOUT_MS, TOOLROOM_GATEWAY_REQUEST_TIMEOUT_MS, TOOLROOM_GATEWAY_MCP_BODY_TIMEOUT_MS } = config()
  return {
    headersMs: TOOLROOM_GATEWAY_HEADERS_TIMEOUT_MS,
    requestMs: TOOLROOM_GATEWAY_REQUEST_TIMEOUT_MS,
    mcpBodyMs: TOOLROOM_GATEWAY_MCP_BODY_TIMEOUT_MS,
    checkEveryMs: 1_000,
    ...overrides,
  }
}

export function createGatewayServer(options: GatewayServerOptions): http.Server {
  const upstream = options.upstream ? new URL(options.upstream) : null
  const timeouts = gatewayTimeouts(options.timeouts)
  // An idle connection to the web app may be closed by it at any moment (Node's server closes idle
  // ones after its keepAliveTimeout and says so in `Keep-Alive: timeout=…`). Node's agent honours that
  // hint only when it has a timeout of its own: with one, idle sockets are dropped a second before the
  // web app would, and what still races (a busy event loop) is retried by `proxy`.
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256, timeout: FRONT_IDLE_SOCKET_MS })
  const server = http.createServer({ connectionsCheckingInterval: timeouts.checkEveryMs }, (req, res) => {
    const path = (req.url ?? '/').split('?')[0]
    if (path === '/mcp' || path === '/mcp/') return void serveMcp(req, res, timeouts.mcpBodyMs)
    if (upstream) {
      const refused = refuseRequestTarget(req.method, req.url)
      if (refused) {
        closeAfterAnswer(req, res)
        return void res.writeHead(refused.status, refused.headers).end(refused.body)
      }
      return proxy(req, res, upstream, agent)
    }
    res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'not found: this process serves /mcp only' }))
  })
  server.keepAliveTimeout = 65_000
  server.headersTimeout = Math.min(timeouts.headersMs, timeouts.requestMs)
  server.requestTimeout = timeouts.requestMs
  // A request the parser gives up on (headers over 16 KiB, not HTTP, too slow) gets a problem and a
  // lingering close, so the client reads why instead of a reset. The parser may report one socket twice.
  const answered = new WeakSet<object>()
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    if (answered.has(socket)) return
    answered.add(socket)
    const inFlight = (socket as { _httpMessage?: http.ServerResponse })._httpMessage
    if (!socket.writable || inFlight?.headersSent) return void socket.destroy()
    lingeringClose(socket as Socket, answerClientError(error.code))
  })
  // Sessions exist only once the pipeline has run.
  server.on('close', () => void (mcpPipeline && import('@/lib/gateway/executors/mcp').then(({ closeMcpSessions }) => closeMcpSessions())))
  return server
}

const timedOut = (): McpAnswer => ({
  status: 408,
  headers: { 'content-type': 'application/json', connection: 'close' },
  body: JSON.stringify({ jsonrpc: '2.0', error: { code: RPC.INVALID_REQUEST, message: 'the request body did not arrive in time' }, id: null }),
})

async function serveMcp(req: http.IncomingMessage, res: http.ServerResponse, bodyMs: number) {
  try {
    const header = (name: string) => {
      const v = req.headers[name]
      return Array.isArray(v) ? v[0] : (v ?? null)
    }
    const gone = new AbortController()
    res.on('close', () => !res.writableFinished && gone.abort())
    let body = ''
    if (req.method === 'POST') {
      const declared = Number(req.headers['content-length'] ?? NaN)
      // Over the limit: answered without reading the rest; the connection closes after the answer.
      const limit = maxMcpBodyBytes()
      const read = declared > limit ? 'too-large' : await readBody(req, limit, bodyMs)
      if (read === 'gone') return
      if (read === 'too-large') return write(req, res, tooLarge())
      if (read === 'timeout') return write(req, res, timedOut())
      body = read.text
    }
    const headers = function* (): Iterable<[string, string]> {
      for (const [name, value] of Object.entries(req.headers)) if (value !== undefined) yield [name, Array.isArray(value) ? value.join(', ') : value]
    }
    const method = req.method ?? 'GET'
    const requestId = header('x-request-id')?.slice(0, 128) ?? undefined
    // The agent's own trace continues here when it sent a traceparent.
    const parent = { traceparent: header('traceparent'), tracestate: header('tracestate') }
    const answer = await withSpan(
      `${method} /mcp`,
      { kind: 'server', parent, attributes: { 'http.request.method': method, 'http.route': '/mcp', 'toolroom.request_id': requestId } },
      async (span) => {
        const { answerMcp } = await loadMcpPipeline()
        const mcp = await answerMcp({ method, header, headers, body, gone: gone.signal, origin: frontPublicOrigin(req.headers, req.socket.remoteAddress) })
        span.setAttributes({ 'http.response.status_code': mcp.status })
        return mcp
      },
    )
    write(req, res, answer)
  } catch (e) {
    console.error('[gateway] /mcp failed', e)
    if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json', connection: 'close' })
    res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32603, message: 'internal error in the gateway' }, id: null }))
  }
}

/** Writes an answer: text at once, an event stream as it comes (cancelled when the client leaves). */
function write(req: http.IncomingMessage, res: http.ServerResponse, answer: McpAnswer) {
  if (!req.complete) closeAfterAnswer(req, res)
  if (typeof answer.body === 'string') {
    res.writeHead(answer.status, { ...answer.headers, 'content-length': String(Buffer.byteLength(answer.body)) }).end(answer.body)
    return
  }
  res.writeHead(answer.status, answer.headers)
  res.flushHeaders()
  const stream = Readable.fromWeb(answer.body as import('node:stream/web').ReadableStream<Uint8Array>)
  stream.on('error', () => res.destroy())
  res.on('close', () => stream.destroy())
  stream.pipe(res)
}

/** The body, or why there is none: larger than `limit`, not complete within `ms`, or the client left. */
function readBody(req: http.IncomingMessage, limit: number, ms: number): Promise<{ text: string } | 'too-large' | 'timeout' | 'gone'> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = []
    let size = 0
    const settle = (outcome: { text: string } | 'too-large' | 'timeout' | 'gone') => {
      clearTimeout(timer)
      req.off('data', onData)
      req.off('end', onEnd)
      req.off('close', onClose)
      if (typeof outcome === 'string') {
        chunks.length = 0
        req.pause()
      }
      resolve(outcome)
    }
    const onData = (chunk: Buffer) => {
      size += chunk.length
      if (size > limit) return settle('too-large')
      chunks.push(chunk)
    }
    const onEnd = () => settle({ text: Buffer.concat(chunks).toString('utf8') })
    const onClose = () => settle('gone')
    const timer = setTimeout(() => settle('timeout'), ms)
    req.on('data', onData)
    req.on('end', onEnd)
    req.on('close', onClose)
  })
}

/** How long a connection to the web app may sit idle in the front's pool (shorter if the web app announces less). */
const FRONT_IDLE_SOCKET_MS = 30_000

/** A request that carries no body can be sent again as it was. */
function withoutBody(req: http.IncomingMessage): boolean {
  return (
    (req.method === 'GET' || req.method === 'HEAD' || req.method === 'OPTIONS') &&
    !req.headers['transfer-encoding'] &&
    !Number(req.headers['content-length'] ?? 0)
  )
}

function proxy(req: http.IncomingMessage, res: http.ServerResponse, upstream: URL, agent: http.Agent, retried = false) {
  const outgoing = http.request(
    {
      protocol: upstream.protocol,
      hostname: upstream.hostname,
      port: upstream.port,
      method: req.method,
      path: req.url,
      headers: { ...req.headers, ...frontForwardedHeaders(req.headers, req.socket.remoteAddress), ...frontPeerHeaders(req.socket.remoteAddress) },
      agent,
    },
    (answer) => {
      const headers = { ...answer.headers }
      // The web app answered before the request's body arrived (a 401, a 413): the rest is not read,
      // so the connection cannot carry another request: close it after the answer.
      const early = !req.complete
      if (early) {
        delete headers['keep-alive']
        headers.connection = 'close'
        req.unpipe(outgoing)
        closeAfterAnswer(req, res)
        answer.on('end', () => outgoing.destroy())
      }
      res.writeHead(answer.statusCode ?? 502, answer.statusMessage, headers)
      answer.pipe(res)
    },
  )
  outgoing.on('error', (error: NodeJS.ErrnoException) => {
    // The web app closed a pooled connection as this request went out on it: nothing reached it, so a
    // request without a body goes again on a fresh connection, once, instead of answering 502.
    if (!retried && outgoing.reusedSocket && !res.headersSent && (error.code === 'ECONNRESET' || error.code === 'EPIPE') && withoutBody(req))
      return proxy(req, res, upstream, agent, true)
    if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain', ...(req.complete ? {} : { connection: 'close' }) })
    res.end('the web server is not reachable')
  })
  // A retried request had no body and has been read whole: there is nothing more to pipe.
  if (retried) return void outgoing.end()
  // A client that leaves mid-request leaves nothing half-sent upstream.
  req.on('close', () => !req.complete && outgoing.destroy())
  req.pipe(outgoing)
}
