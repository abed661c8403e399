// The benchmark's upstream: a local SDK MCP server (streamable HTTP, stateless, JSON answers) with
// one read-only tool. Prints its URL.
import http from 'node:http'
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js'
import { z } from 'zod'

function build() {
  const server = new McpServer({ name: 'bench-upstream', version: '1.0.0' })
  server.registerTool(
    'lookup',
    { description: 'Looks a key up', inputSchema: { key: z.string() }, annotations: { readOnlyHint: true, openWorldHint: false } },
    async ({ key }) => ({
      content: [{ type: 'text', text: `value of ${key}` }],
      structuredContent: { key, value: `value of ${key}` },
    }),
  )
  return server
}

const server = http.createServer(async (req, res) => {
  if (req.url === '/health') return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}')
  if (req.method !== 'POST') return void res.writeHead(405).end()
  const chunks = []
  for await (const c of req) chunks.push(c)
  const mcp = build()
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true })
  res.on('close', () => {
    void transport.close()
    void mcp.close()
  })
  await mcp.connect(transport)
  await transport.handleRequest(req, res, JSON.parse(Buffer.concat(chunks).toString('utf8')))
})
server.keepAliveTimeout = 65_000
server.listen(Number(process.env.UPSTREAM_PORT ?? 0), '127.0.0.1', () => console.log(`upstream http://127.0.0.1:${server.address().port}/mcp`))
