// One process of the discovery benchmark's fleet: `count` SDK MCP servers (streamable HTTP with
// sessions, /health, 10 annotated tools) and `count` agent listeners (agent.json + /a2a/tools),
// each on its own loopback port. Prints {"mcp": [ports], "agents": [ports]} once listening.
import { randomUUID } from 'node:crypto'
import http from 'node:http'
import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js'
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js'

const count = Number(process.argv[2] ?? 125)
const schema = { type: 'object', properties: { id: { type: 'string' }, limit: { type: 'integer' } }, required: ['id'] }
const mcpTools = Array.from({ length: 10 }, (_, i) => ({
  name: `do-thing-${i}`,
  description: `Does thing ${i}`,
  inputSchema: schema,
  annotations: { readOnlyHint: i % 2 === 0, openWorldHint: true },
}))
const imageTools = Array.from({ length: 10 }, (_, i) => ({ name: `bench.tool_${i}`, description: `Image tool ${i}`, inputSchema: schema }))

function mcpServer() {
  const sessions = new Map()
  return http.createServer(async (req, res) => {
    if (req.url === '/health') return res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}')
    const id = req.headers['mcp-session-id']
    let transport = id ? sessions.get(id) : undefined
    if (id && !transport) return res.writeHead(404).end()
    if (!transport) {
      const server = new Server({ name: 'bench', version: '1' }, { capabilities: { tools: {} } })
      server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: mcpTools }))
      server.setRequestHandler(CallToolRequestSchema, async () => ({ content: [{ type: 'text', text: 'unknown tool' }], isError: true }))
      const created = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID(), onsessioninitialized: (sid) => sessions.set(sid, created) })
      created.onclose = () => created.sessionId && sessions.delete(created.sessionId)
      await server.connect(created)
      transport = created
    }
    await transport.handleRequest(req, res)
  })
}

function agentListener() {
  return http.createServer((req, res) => {
    if (req.url === '/.well-known/agent.json') return res.writeHead(200, { 'content-type': 'application/json' }).end('{"name":"bench-agent","version":"1"}')
    if (req.url === '/a2a/tools') return res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(imageTools))
    res.writeHead(404).end()
  })
}

const listen = (server) => new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server.address().port)))
const mcp = []
const agents = []
for (let i = 0; i < count; i++) {
  mcp.push(await listen(mcpServer()))
  agents.push(await listen(agentListener()))
}
process.stdout.write(`${JSON.stringify({ mcp, agents })}\n`)
process.on('SIGTERM', () => process.exit(0))
