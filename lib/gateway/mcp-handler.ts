// The gateway's MCP endpoint (`/mcp`, streamable HTTP, stateless, JSON answers): authenticates the
// agent, reads a bounded body, answers JSON-RPC that is broken before it reaches the SDK with the
// right error object (-32700 unparseable, -32600 not a JSON-RPC message), then lets an SDK Server
// answer `initialize`, `tools/list`, `tools/call` and everything else (-32601 for unknown methods).
// Stateless, so any gateway process can serve any request and sessions survive restarts.
// Web-standard Request → Response: the same function serves the lean gateway process and Next.js.
import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'
import { CallToolRequestSchema, JSONRPCMessageSchema, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js'
import { type AgentIdentity, authenticateAgent } from '@/lib/auth/authenticate-agent'
import { agentTools } from './agent-tools'
import { callTool } from './call-tool'
import { RPC } from './tool-errors'

export const MAX_MCP_BODY_BYTES = Number(process.env.TOOLROOM_GATEWAY_MAX_BODY_BYTES ?? 1024 * 1024)
const SERVER_INFO = { name: 'toolroom-gateway', version: '1.0.0' }
const INSTRUCTIONS =
  'Toolroom gateway: the tools listed are the ones this agent may call. Calls that need approval answer with status "approval_required" and a callId; ask toolroom.approval_status for the decision.'

function rpcError(status: number, code: number, message: string, extraHeaders: Record<string, string> = {}, data?: unknown): Response {
  return new Response(JSON.stringify({ jsonrpc: '2.0', error: { code, message, ...(data !== undefined ? { data } : {}) }, id: null }), {
    status,
    headers: { 'content-type': 'application/json', ...extraHeaders },
  })
}

export async function handleMcpRequest(request: Request, preRead?: { body: string }): Promise<Response> {
  if (request.method !== 'POST')
    return rpcError(405, RPC.INVALID_REQUEST, 'this gateway is stateless: send JSON-RPC with POST (no server-initiated stream, no sessions to delete)', { allow: 'POST' })

  const agent = await authenticateAgent(request)
  if (!agent)
    return rpcError(401, RPC.INVALID_REQUEST, 'send an agent credential: Authorization: Bearer tra_… (POST /api/v1/agents/{id}/credentials)', {
      'www-authenticate': 'Bearer realm="toolroom-gateway"',
    })

  let text: string
  if (preRead) text = preRead.body
  else {
    const read = await readBounded(request, MAX_MCP_BODY_BYTES)
    if (read === null) return rpcError(413, RPC.INVALID_REQUEST, `the request body is larger than ${MAX_MCP_BODY_BYTES} bytes`)
    text = read
  }
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch (e) {
    return rpcError(400, RPC.PARSE_ERROR, `Parse error: ${(e as Error).message}`)
  }
  const messages = Array.isArray(parsed) ? parsed : [parsed]
  if (messages.length === 0 || messages.some((m) => !JSONRPCMessageSchema.safeParse(m).success))
    return rpcError(400, RPC.INVALID_REQUEST, 'Invalid Request: not a JSON-RPC 2.0 message (jsonrpc "2.0", a method name, an id of string or number)')

  const server = gatewayServer(agent, request.headers.get('x-request-id') ?? undefined)
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true })
  await server.connect(transport)
  try {
    return await transport.handleRequest(request, { parsedBody: parsed })
  } finally {
    void server.close().catch(() => {})
  }
}

function gatewayServer(agent: AgentIdentity, requestId: string | undefined): Server {
  const server = new Server(SERVER_INFO, { capabilities: { tools: { listChanged: false } }, instructions: INSTRUCTIONS })
  server.setRequestHandler(ListToolsRequestSchema, async () => {
    const tools = await agentTools(agent.agentId)
    return { tools: tools?.list ?? [] }
  })
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const meta = request.params._meta as Record<string, unknown> | undefined
    const key = typeof meta?.idempotencyKey === 'string' ? meta.idempotencyKey : undefined
    const answer = await callTool({ agent, channel: 'mcp', requestId, signal: extra.signal }, request.params.name, request.params.arguments ?? {}, key)
    if ('error' in answer) throw new McpError(answer.error.code, answer.error.message, answer.error.data)
    return answer.result
  })
  return server
}

/** The body as text, or null when it is larger than `limit`. */
export async function readBounded(request: Request, limit: number): Promise<string | null> {
  const declared = Number(request.headers.get('content-length') ?? NaN)
  if (declared > limit) return null
  if (!request.body) return ''
  const reader = request.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > limit) {
      await reader.cancel().catch(() => {})
      return null
    }
    chunks.push(value)
  }
  return Buffer.concat(chunks).toString('utf8')
}
