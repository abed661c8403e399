// Real local endpoints for the demo fleet, so discovery happens for real on a fresh `npm start`:
// MCP tool servers built with the official SDK (streamable HTTP with sessions, or SSE for the
// LanguageTools that speak it; a /health route; annotated tools) for the LanguageTools that point at
// 127.0.0.1, and an A2A agent listener serving `/.well-known/agent.json` and `/a2a/tools` for the
// agents that point at it. They listen on the ports `npm start` chose (TOOLROOM_DEMO_PORT, see
// scripts/demo-ports.mjs), where the seeded endpoints point. The demo's failing tool is not here: it
// is a REST Tool whose host does not exist (lib/seed/seed-demo-history.ts, DEMO_FAILING_TOOL).
import { randomUUID } from 'node:crypto'
import fs from 'node:fs'
import http from 'node:http'
import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js'
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js'
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js'
import YAML from 'yaml'
import { DEMO_MANIFEST_PORT, withDemoPorts } from './demo-ports.mjs'

const log = (...a) => console.log('[demo]', ...a)
const surfaces = JSON.parse(fs.readFileSync('prisma/seed/language-tool-surfaces.json', 'utf8'))
const imageTools = JSON.parse(fs.readFileSync('prisma/seed/image-tools.json', 'utf8'))
const portBase = Number(process.env.TOOLROOM_DEMO_PORT) || DEMO_MANIFEST_PORT
const documents = YAML.parseAllDocuments(withDemoPorts(fs.readFileSync('prisma/seed/demo-fleet.yaml', 'utf8'), portBase)).map((d) => d.toJS())
const servers = []

function listen(server, port) {
  return new Promise((resolve) => {
    server.once('error', (e) => {
      // Said in one line (start.mjs chose free ports, so only a race or a hand-run copy gets here).
      console.error(
        `[demo] ${e.code === 'EADDRINUSE' ? `port ${port} is in use (another Toolroom's demo?): stop it, or use another TOOLROOM_DATA_DIR` : e.message}`,
      )
      process.exit(1)
    })
    server.listen(port, '127.0.0.1', () => resolve())
  })
}

function toolServer(name, tools) {
  const server = new Server({ name, version: '1.0.0-demo' }, { capabilities: { tools: {} } })
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }))
  server.setRequestHandler(CallToolRequestSchema, async (req) => {
    const tool = tools.find((t) => t.name === req.params.name)
    if (!tool) return { content: [{ type: 'text', text: `unknown tool ${req.params.name}` }], isError: true }
    return { content: [{ type: 'text', text: JSON.stringify({ demo: true, tool: tool.name, arguments: req.params.arguments ?? {} }) }] }
  })
  return server
}

/** An older server that speaks SSE: GET /sse opens the stream, POST /messages?sessionId= carries the requests. */
function sseServer(name, tools) {
  const transports = new Map()
  return http.createServer(async (req, res) => {
    try {
      const url = new URL(req.url, 'http://localhost')
      if (url.pathname === '/health') return json(res, 200, { status: 'ok' })
      if (url.pathname === '/sse' && req.method === 'GET') {
        const transport = new SSEServerTransport('/messages', res)
        transports.set(transport.sessionId, transport)
        res.on('close', () => transports.delete(transport.sessionId))
        await toolServer(name, tools).connect(transport)
        return
      }
      const transport = url.pathname === '/messages' && req.method === 'POST' ? transports.get(url.searchParams.get('sessionId')) : undefined
      if (!transport) return json(res, 404, { error: 'not found' })
      await transport.handlePostMessage(req, res)
    } catch (e) {
      if (!res.headersSent) json(res, 500, { error: e.message })
    }
  })
}

function mcpServer(name, tools) {
  const sessions = new Map()
  const newSession = async () => {
    const server = toolServer(name, tools)
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => sessions.set(id, transport),
    })
    transport.onclose = () => transport.sessionId && sessions.delete(transport.sessionId)
    await server.connect(transport)
    return transport
  }
  return http.createServer(async (req, res) => {
    try {
      const url = new URL(req.url, 'http://localhost')
      if (url.pathname === '/health') return json(res, 200, { status: 'ok' })
      if (url.pathname !== '/mcp') return json(res, 404, { error: 'not found' })
      const id = req.headers['mcp-session-id']
      const transport = id ? sessions.get(id) : await newSession()
      if (!transport) return json(res, 404, { jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null })
      await transport.handleRequest(req, res)
    } catch (e) {
      if (!res.headersSent) json(res, 500, { jsonrpc: '2.0', error: { code: -32603, message: e.message }, id: null })
    }
  })
}

function agentListener(port, agents) {
  return http.createServer((req, res) => {
    const m = /^\/agents\/([a-z0-9-]+)(\/.*)$/.exec(new URL(req.url, 'http://localhost').pathname)
    const agent = m && agents.get(m[1])
    if (!agent) return json(res, 404, { error: 'no such agent' })
    if (m[2] === '/.well-known/agent.json')
      return json(res, 200, {
        name: agent.name,
        description: `Demo listener for ${agent.name}`,
        version: agent.version,
        url: `http://127.0.0.1:${port}/agents/${agent.name}`,
      })
    if (m[2] === '/a2a/tools') return json(res, 200, agent.tools)
    json(res, 404, { error: 'not found' })
  })
}

function json(res, status, body) {
  res.writeHead(status, { 'content-type': 'application/json' })
  res.end(JSON.stringify(body))
}

for (const doc of documents) {
  const endpoint = doc?.kind === 'LanguageTool' ? doc.spec?.endpoint : undefined
  const local = endpoint && /^http:\/\/127\.0\.0\.1:(\d+)\/(mcp|sse)$/.exec(endpoint)
  if (!local) continue
  const tools = surfaces[`${doc.metadata.namespace}/${doc.metadata.name}`] ?? []
  const server = doc.spec.transport === 'sse' ? sseServer(doc.metadata.name, tools) : mcpServer(doc.metadata.name, tools)
  await listen(server, Number(local[1]))
  servers.push(server)
  log(`MCP server ${doc.metadata.namespace}/${doc.metadata.name} on ${endpoint} (${tools.length} tools)`)
}

// The agents' listeners, on the ports their endpoints in the manifest name (one listener a port).
const agentsByPort = new Map()
for (const doc of documents) {
  const m = doc?.kind === 'Agent' && /^http:\/\/127\.0\.0\.1:(\d+)\/agents\/([a-z0-9-]+)$/.exec(doc.spec?.endpoint ?? '')
  if (!m) continue
  const entry = imageTools[`${doc.metadata.namespace}/Agent/${doc.metadata.name}`]
  const port = Number(m[1])
  if (!agentsByPort.has(port)) agentsByPort.set(port, new Map())
  agentsByPort.get(port).set(m[2], { name: doc.metadata.name, version: doc.spec.image?.split(':')[1]?.split('@')[0] ?? 'latest', tools: entry?.tools ?? [] })
}
for (const [port, agents] of agentsByPort) {
  const listener = agentListener(port, agents)
  await listen(listener, port)
  servers.push(listener)
  log(`agent listener on http://127.0.0.1:${port}/agents/{${[...agents.keys()].join(',')}}`)
}

for (const signal of ['SIGINT', 'SIGTERM'])
  process.on(signal, () => {
    for (const s of servers) s.close()
    process.exit(0)
  })
