// The gateway's fetch for pooled MCP client sessions (lib/outbound/session-fetch.ts), against real local
// HTTP servers: the official SDK client works through it for JSON and event-stream answers, and the
// SSRF policy, size and time limits hold.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { parseAddressPolicy } from '@/lib/net/address-policy'
import { OutboundError } from '@/lib/outbound/outbound-error'
import { createSessionFetch } from '@/lib/outbound/session-fetch'
import { answerStatelessMcp } from '../support/stateless-mcp'

const servers: http.Server[] = []
async function listen(handler: http.RequestListener): Promise<string> {
  const server = http.createServer(handler)
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

/** A stateless SDK MCP server answering JSON (`json: true`) or server-sent events. */
function mcpHandler(json: boolean): http.RequestListener {
  const build = () => {
    const server = new McpServer({ name: 'fetch-test', version: '1.0.0' })
    server.registerTool('echo', { inputSchema: { text: z.string() } }, async ({ text }) => ({ content: [{ type: 'text', text: `echo ${text}` }] }))
    return server
  }
  return (req, res) => void answerStatelessMcp(build, req, res, { json })
}

const fetchLike = createSessionFetch(parseAddressPolicy('loopback'), { timeoutMs: 1_000, maxBytes: 64 * 1024 })
let jsonUrl: string
let sseUrl: string
let plainUrl: string

beforeAll(async () => {
  jsonUrl = await listen(mcpHandler(true))
  sseUrl = await listen(mcpHandler(false))
  plainUrl = await listen((req, res) => {
    if (req.url === '/big') return void res.writeHead(200, { 'content-type': 'application/json' }).end(`"${'x'.repeat(200 * 1024)}"`)
    if (req.url === '/slow') return void setTimeout(() => res.end('late'), 3_000)
    if (req.url === '/empty') return void res.writeHead(204).end()
    res.writeHead(201, { 'content-type': 'application/json', 'x-one': 'a', 'set-cookie': ['b=1', 'c=2'] }).end('{"ok":true}')
  })
})

afterAll(async () => {
  for (const s of servers) s.closeAllConnections()
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))))
})

describe('the gateway session fetch', () => {
  it.each([
    ['JSON', () => jsonUrl],
    ['event-stream', () => sseUrl],
  ])('carries the official SDK client over %s answers', async (_, url) => {
    const client = new Client({ name: 'test', version: '1.0.0' })
    await client.connect(new StreamableHTTPClientTransport(new URL(`${url()}/mcp`), { fetch: fetchLike }))
    const result = await client.callTool({ name: 'echo', arguments: { text: 'hi' } })
    expect(result.content).toEqual([{ type: 'text', text: 'echo hi' }])
    await client.close()
  })

  it('answers status, headers and body as a Response does', async () => {
    const res = await fetchLike(`${plainUrl}/`, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } })
    expect([res.ok, res.status, res.headers.get('X-One'), res.headers.get('set-cookie'), res.headers.get('absent')]).toEqual([true, 201, 'a', 'b=1, c=2', null])
    expect(await res.json()).toEqual({ ok: true })
    const empty = await fetchLike(`${plainUrl}/empty`)
    expect([empty.status, await empty.text()]).toEqual([204, ''])
  })

  it('refuses addresses outside the policy before connecting, and metadata addresses always', async () => {
    await expect(fetchLike('http://169.254.169.254/latest/meta-data')).rejects.toMatchObject({ failure: 'refused' })
    await expect(fetchLike('http://10.0.0.1/mcp')).rejects.toMatchObject({ failure: 'refused', message: expect.stringContaining('allow-list') })
    await expect(fetchLike('file:///etc/passwd')).rejects.toBeInstanceOf(OutboundError)
  })

  it('stops reading an answer past the size limit, and a server past the time limit', async () => {
    await expect(fetchLike(`${plainUrl}/big`)).rejects.toMatchObject({ failure: 'too_large' })
    await expect(fetchLike(`${plainUrl}/slow`)).rejects.toMatchObject({ failure: 'timeout' })
  })
})
