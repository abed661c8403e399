// A stateless streamable-HTTP MCP endpoint for tests: a fresh SDK server and transport per POST, as
// the SDK's stateless example does. Used by the gateway, discovery and e2e fixtures alike.
import type http from 'node:http'
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import type { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js'

/** Answers one request with a server from `build`; `json: false` answers with server-sent events. */
export async function answerStatelessMcp(
  build: () => McpServer | Server,
  req: http.IncomingMessage,
  res: http.ServerResponse,
  opts: { json?: boolean } = {},
): Promise<void> {
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  const text = Buffer.concat(chunks).toString('utf8')
  const server = build()
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: opts.json ?? true })
  res.on('close', () => {
    void transport.close()
    void server.close()
  })
  await server.connect(transport)
  await transport.handleRequest(req, res, text ? JSON.parse(text) : undefined)
}
