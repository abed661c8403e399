// The lean gateway process: node:http serving `/mcp` with the same handler Next.js mounts at
// app/mcp/route.ts, without the framework's per-request work. With `upstream` set it fronts the
// whole origin: `/mcp` is answered here and every other request is passed to the Next.js server
// unchanged (bodies and answers streamed), so agents and people use one address.
import http from 'node:http'
import { frontPeerHeaders } from '@/lib/http/client-address'
import { closeMcpSessions } from './executors/mcp'
import { handleMcpBody, MAX_MCP_BODY_BYTES, type McpAnswer, notPost, tooLarge } from './mcp-handler'

export interface GatewayServerOptions {
  port: number
  host?: string
  /** Origin of the Next.js server to pass everything but /mcp to, e.g. `http://127.0.0.1:3001`. */
  upstream?: string
}

export function createGatewayServer(options: GatewayServerOptions): http.Server {
  const upstream = options.upstream ? new URL(options.upstream) : null
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 })
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]
    if (path === '/mcp' || path === '/mcp/') return void serveMcp(req, res)
    if (upstream) return proxy(req, res, upstream, agent)
    res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'not found: this process serves /mcp only' }))
  })
  server.keepAliveTimeout = 65_000
  server.headersTimeout = 66_000
  server.requestTimeout = 0
  server.on('close', () => void closeMcpSessions())
  return server
}

async function serveMcp(req: http.IncomingMessage, res: http.ServerResponse) {
  try {
    let answer: McpAnswer
    if (req.method !== 'POST') answer = notPost()
    else {
      const declared = Number(req.headers['content-length'] ?? NaN)
      const body = declared > MAX_MCP_BODY_BYTES ? null : await readBody(req, MAX_MCP_BODY_BYTES)
      if (body === null) {
        // Answer without reading the rest; the connection is closed after the answer.
        req.resume()
        answer = tooLarge()
      } else {
        const header = (name: string) => {
          const v = req.headers[name]
          return Array.isArray(v) ? v[0] : (v ?? null)
        }
        answer = await handleMcpBody(header('authorization'), header('mcp-protocol-version'), body, header('x-request-id') ?? undefined)
      }
    }
    res.writeHead(answer.status, { ...answer.headers, 'content-length': String(Buffer.byteLength(answer.body)) }).end(answer.body)
  } catch (e) {
    console.error('[gateway] /mcp failed', e)
    if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' })
    res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32603, message: 'internal error in the gateway' }, id: null }))
  }
}

function readBody(req: http.IncomingMessage, limit: number): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    let over = false
    req.on('data', (chunk: Buffer) => {
      if (over) return
      size += chunk.length
      if (size > limit) {
        over = true
        chunks.length = 0
        return resolve(null)
      }
      chunks.push(chunk)
    })
    req.on('end', () => !over && resolve(Buffer.concat(chunks).toString('utf8')))
    req.on('error', reject)
  })
}

function proxy(req: http.IncomingMessage, res: http.ServerResponse, upstream: URL, agent: http.Agent) {
  const outgoing = http.request(
    { protocol: upstream.protocol, hostname: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: { ...req.headers, 'x-forwarded-host': req.headers.host ?? '', ...frontPeerHeaders(req.socket.remoteAddress) }, agent },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.statusMessage, answer.headers)
      answer.pipe(res)
    },
  )
  outgoing.on('error', () => {
    if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' })
    res.end('the web server is not reachable')
  })
  req.pipe(outgoing)
}
