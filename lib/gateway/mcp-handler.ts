// The gateway's MCP endpoint (`/mcp`, streamable HTTP, stateless). It authenticates the agent, reads
// a bounded body, and tells the protocol revisions apart per request as 2026-07-28 specifies
// (basic/versioning, "Backward Compatibility": a request carrying the per-request `_meta` envelope is
// served statelessly under 2026-07-28; one without it, `initialize` included, under the revision it
// names, 2025-11-25 and earlier). The decision is SDK v2's own classifier (classifyInboundRequest, the
// step its createMcpHandler routes on), so the two never disagree:
//   - `_meta["io.modelcontextprotocol/protocolVersion"]` present, or an `MCP-Protocol-Version: 2026-…`
//     header → 2026-07-28 (mcp-modern.ts, SDK v2), whose validation ladder answers a malformed envelope;
//   - anything else (initialize, 2025-era requests and notifications, batches, GET) → 2025-11-25
//     (mcp-legacy.ts, SDK v1).
// Stateless, so any gateway process serves any request. `answerMcp` is the core, used by the lean
// process directly; `handleMcpRequest` wraps it for web-standard Request/Response (Next.js).
import 'server-only'
import { classifyInboundRequest } from '@modelcontextprotocol/server'
import { type AgentIdentity, identifyAgentToken } from '@/lib/auth/authenticate-agent'
import { config } from '@/lib/config'
import { requestOrigin } from '@/lib/request-origin/public-origin'
import { fieldOf, findInexactNumber } from '@/lib/json/exact-numbers'
import { readBounded } from '@/lib/http/read-bounded'
import { mcpResourceOf, resourceMetadataUrlOf } from '@/lib/oauth/protected-resource'
import { identifyGatewayBearer } from './identify-gateway-bearer'
import { maxMcpBodyBytes, type McpAnswer, notAllowed, rpcError, tooLarge } from './mcp-http-answer'
import { answerLegacy, openListChangedStream } from './mcp-legacy'
import { answerModern } from './mcp-modern'
import { RPC } from './tool-errors'

export { maxMcpBodyBytes, type McpAnswer, notAllowed, tooLarge } from './mcp-http-answer'
export { mcpTransport } from './mcp-legacy'

/** One HTTP request to /mcp, as either server sees it. */
export interface McpHttpRequest {
  method: string
  /** A request header by lower-case name (the first, when repeated). */
  header(name: string): string | null
  /** Every request header, by lower-case name. */
  headers(): Iterable<[string, string]>
  /** The body (POST). */
  body: string
  /** Aborts when the client went away. */
  gone?: AbortSignal
  /** The origin the client reached Toolroom at (lib/request-origin/public-origin.ts): `/mcp` there is the protected resource. Null when the request named no usable host: no OAuth token is for it then. */
  origin: string | null
}

/** An agent credential (`tra_…`), or an OAuth access token (`tro_…`) issued for this `/mcp`. */
async function authenticate(req: McpHttpRequest): Promise<AgentIdentity | null> {
  const token = /^Bearer\s+((?:tra|tro)_\S{1,500})\s*$/i.exec(req.header('authorization') ?? '')?.[1]
  if (!token) return null
  // An agent credential is not bound to an origin; an OAuth token is for `<origin>/mcp`, so it needs one.
  if (!req.origin) return token.startsWith('tra_') ? identifyAgentToken(token) : null
  return identifyGatewayBearer(token, mcpResourceOf(req.origin))
}

// RFC 9728 §5.1: the challenge names where the resource's metadata is, so an MCP client can find the
// authorization server; RFC 6750 §3: a token that was sent but is not good is `invalid_token`.
const unauthorized = (req: McpHttpRequest) => {
  const sent = /^Bearer\s+\S/i.test(req.header('authorization') ?? '')
  // Without a usable Host there is no resource to name, and no address of ours to fall back on.
  const challenge = req.origin
    ? `Bearer resource_metadata="${resourceMetadataUrlOf(req.origin)}", scope="mcp"${sent ? ', error="invalid_token"' : ''}`
    : `Bearer error="invalid_request", error_description="the Host header names no host"`
  return rpcError(
    401,
    RPC.INVALID_REQUEST,
    'send an agent credential (Authorization: Bearer tra_…, POST /api/v1/agents/{id}/credentials) or an OAuth access token for this resource (see the WWW-Authenticate header)',
    { 'www-authenticate': challenge },
  )
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]'])

/**
 * DNS rebinding (streamable HTTP, "Security & Endpoint": servers MUST validate Origin, 403 when it is
 * invalid). Agents are programs and send no Origin; a browser does, and a page whose host name was
 * rebound to this address sends its own, matching Host. So an Origin must be one this gateway was
 * told to expect: TOOLROOM_PUBLIC_URL's, one of TOOLROOM_GATEWAY_ALLOWED_ORIGINS, or a loopback one
 * (an MCP client's local web UI).
 */
function originRefused(req: McpHttpRequest): McpAnswer | null {
  const origin = req.header('origin')
  if (origin === null) return null
  let url: URL | null = null
  try {
    url = new URL(origin)
  } catch {
    // not an origin at all
  }
  if (url && (url.protocol === 'http:' || url.protocol === 'https:')) {
    const { TOOLROOM_GATEWAY_ALLOWED_ORIGINS, TOOLROOM_PUBLIC_URL } = config()
    if (LOOPBACK_HOSTS.has(url.hostname) || TOOLROOM_GATEWAY_ALLOWED_ORIGINS.includes(url.origin)) return null
    if (TOOLROOM_PUBLIC_URL && new URL(TOOLROOM_PUBLIC_URL).origin === url.origin) return null
  }
  return rpcError(
    403,
    RPC.INVALID_REQUEST,
    `requests from the origin ${origin.slice(0, 100)} are refused here (DNS rebinding protection); list it in TOOLROOM_GATEWAY_ALLOWED_ORIGINS if a browser-based MCP client runs there`,
  )
}

export async function answerMcp(req: McpHttpRequest): Promise<McpAnswer> {
  const refused = originRefused(req)
  if (refused) return refused
  const method = req.method.toUpperCase()
  const wantsStream = /text\/event-stream/i.test(req.header('accept') ?? '')
  if (method === 'GET' && wantsStream) {
    const agent = await authenticate(req)
    if (!agent) return unauthorized(req)
    return openListChangedStream(agent, req.gone)
  }
  if (method !== 'POST') return notAllowed(method)
  const agent = await authenticate(req)
  if (!agent) return unauthorized(req)

  let parsed: unknown
  try {
    parsed = JSON.parse(req.body)
  } catch (e) {
    return rpcError(400, RPC.PARSE_ERROR, `Parse error: ${(e as Error).message}`)
  }
  // A number JSON.parse changed (1e400 became Infinity, a 20-digit id was rounded) would be checked as
  // one value and forwarded as another: refused, naming where and the limit (lib/json/exact-numbers.ts).
  const inexact = findInexactNumber(req.body)
  if (inexact) {
    const field = fieldOf(inexact.path)
    return rpcError(400, RPC.INVALID_REQUEST, `Invalid Request: ${field}: ${inexact.message}`, {}, { field, rule: inexact.rule })
  }
  const protocolVersion = req.header('mcp-protocol-version')
  const route = classifyInboundRequest({
    httpMethod: 'POST',
    protocolVersionHeader: protocolVersion ?? undefined,
    mcpMethodHeader: req.header('mcp-method') ?? undefined,
    mcpNameHeader: req.header('mcp-name') ?? undefined,
    body: parsed,
  })
  const requestId = req.header('x-request-id') ?? undefined
  // What is not JSON-RPC at all claims no revision: the 2025-11-25 layer answers it as it always did
  // (batches included, each message its own answer); a batch holding a 2026-07-28 request is refused
  // by SDK v2 (that revision has no batches).
  const legacy = route.kind === 'legacy' || (route.kind === 'reject' && route.rung === 'jsonrpc-shape' && route.cell !== 'batch-with-modern-element')
  if (legacy) return answerLegacy(agent, parsed, { protocolVersion, requestId, gone: req.gone, acceptsStream: wantsStream })
  return answerModern({ agent, parsed, headers: req.headers(), requestId, gone: req.gone })
}

/** Web-standard wrapper (Next.js route). */
export async function handleMcpRequest(request: Request): Promise<Response> {
  let body = ''
  if (request.method === 'POST') {
    const text = await readBounded(request, maxMcpBodyBytes())
    if (text === null) return toResponse(tooLarge())
    body = text
  }
  const answer = await answerMcp({
    method: request.method,
    header: (name) => request.headers.get(name),
    headers: () => request.headers.entries(),
    body,
    gone: request.signal,
    origin: requestOrigin(request),
  })
  return toResponse(answer)
}

function toResponse(answer: McpAnswer): Response {
  return new Response(answer.body === '' ? null : answer.body, { status: answer.status, headers: answer.headers })
}
