// The gateway front on the public port, from raw sockets: slow-loris headers, bodies that never
// finish (on /mcp and on the paths it passes to the web app), oversized bodies and early answers
// close the connection in bounded time, and the front keeps serving everyone else.
import http from 'node:http'
import net from 'node:net'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createGatewayServer } from '@/lib/gateway/server'
import { listen, type Listening } from '../support/listen'

let web: Listening
let front: http.Server
let port: number

/** Opens a raw connection, writes `steps` (text, bytes, or a pause), and reports what came back and whether the server closed. */
async function raw(steps: Array<string | Buffer | { waitMs: number }>, deadlineMs: number) {
  const started = Date.now()
  const socket = net.connect(port, '127.0.0.1')
  let got = ''
  let closedAt: number | null = null
  socket.on('data', (d) => (got += d.toString('latin1')))
  socket.on('error', () => {})
  const closed = new Promise<void>((resolve) => socket.on('close', () => ((closedAt = Date.now() - started), resolve())))
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()))
  for (const step of steps) {
    if (closedAt !== null) break
    if (typeof step === 'object' && 'waitMs' in step) await new Promise((r) => setTimeout(r, step.waitMs))
    else socket.write(step)
  }
  await Promise.race([closed, new Promise((r) => setTimeout(r, Math.max(0, deadlineMs - (Date.now() - started))))])
  socket.destroy()
  return { got, closedAfterMs: closedAt as number | null }
}

beforeAll(async () => {
  // Stands in for the Next.js server behind the front.
  web = await listen((req, res) => {
    if (req.url === '/api/early') return void res.writeHead(401, { 'content-type': 'application/problem+json' }).end('{"title":"Unauthorized"}')
    let size = 0
    req.on('data', (c: Buffer) => (size += c.length))
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ received: size })))
  })
  front = createGatewayServer({ port: 0, upstream: web.url, timeouts: { headersMs: 1000, requestMs: 2500, mcpBodyMs: 1000, checkEveryMs: 100 } })
  await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve))
  port = (front.address() as AddressInfo).port
})

afterAll(async () => {
  front?.closeAllConnections()
  await new Promise<void>((resolve) => (front ? front.close(() => resolve()) : resolve()))
  await web?.close()
})

const head = (method: string, path: string, headers: Record<string, string | number>) =>
  `${method} ${path} HTTP/1.1\r\nhost: 127.0.0.1\r\nconnection: keep-alive\r\n${Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('')}\r\n`

describe('the gateway front bounds connections', () => {
  it('cuts off headers trickled slowly (slow-loris), on /mcp and on the paths it passes on', async () => {
    for (const path of ['/mcp', '/api/v1/tools']) {
      const trickle = [`GET ${path} HTTP/1.1\r\nhost: x\r\n`, ...Array.from({ length: 50 }, (_, i) => [{ waitMs: 150 }, `x-slow-${i}: 1\r\n`]).flat()]
      const { got, closedAfterMs } = await raw(trickle, 7000)
      expect(closedAfterMs, path).not.toBeNull()
      expect(closedAfterMs!, path).toBeLessThan(4000)
      expect(got, path).toMatch(/^HTTP\/1\.1 408/)
    }
  })

  it('answers an /mcp body that never completes with 408 and closes the connection', async () => {
    const { got, closedAfterMs } = await raw([head('POST', '/mcp', { 'content-type': 'application/json', 'content-length': 100 }), '{"jsonrpc":'], 6000)
    expect(got).toMatch(/^HTTP\/1\.1 408/)
    expect(got).toMatch(/connection: close/i)
    expect(closedAfterMs).not.toBeNull()
    expect(closedAfterMs!).toBeLessThan(4000)
  })

  it('cuts off an upload to the web app that stalls, and passes one that keeps coming', async () => {
    const stalled = await raw([head('POST', '/api/v1/apply', { 'content-type': 'application/yaml', 'content-length': 1000 }), 'kind: Tool\n'], 8000)
    expect(stalled.closedAfterMs).not.toBeNull()
    expect(stalled.closedAfterMs!).toBeLessThan(6000)
    const chunk = Buffer.alloc(256 * 1024, 'a')
    const steady = await raw(
      [head('POST', '/api/v1/apply', { 'content-length': chunk.length * 4 }), chunk, { waitMs: 200 }, chunk, { waitMs: 200 }, chunk, { waitMs: 200 }, chunk],
      2000,
    )
    expect(steady.got).toMatch(/^HTTP\/1\.1 200/)
    expect(steady.got).toContain(`"received":${chunk.length * 4}`)
  })

  it('closes the connection after the web app answers before the body arrived (no 10 MB left unread on a kept-alive connection)', async () => {
    const { got, closedAfterMs } = await raw(
      [head('POST', '/api/early', { 'content-type': 'application/json', 'content-length': 10 * 1024 * 1024 }), Buffer.alloc(256 * 1024, 'a')],
      6000,
    )
    expect(got).toMatch(/^HTTP\/1\.1 401/)
    expect(got).toMatch(/connection: close/i)
    expect(closedAfterMs).not.toBeNull()
    // well before any timeout of the front (2.5 s for the whole request here)
    expect(closedAfterMs!).toBeLessThan(2000)
  })

  it('refuses an /mcp body over the limit with 413 without reading it, and closes the connection', async () => {
    const declared = await raw(
      [head('POST', '/mcp', { 'content-type': 'application/json', 'content-length': 10 * 1024 * 1024 }), Buffer.alloc(64 * 1024, 'a')],
      5000,
    )
    expect(declared.got).toMatch(/^HTTP\/1\.1 413/)
    expect(declared.closedAfterMs).not.toBeNull()
    const chunked = Buffer.alloc(2 * 1024 * 1024, 'a')
    const undeclared = await raw(
      [
        head('POST', '/mcp', { 'content-type': 'application/json', 'transfer-encoding': 'chunked' }),
        `${chunked.length.toString(16)}\r\n`,
        chunked,
        { waitMs: 3000 },
      ],
      5000,
    )
    expect(undeclared.got).toMatch(/^HTTP\/1\.1 413/)
    expect(undeclared.closedAfterMs).not.toBeNull()
    expect(undeclared.closedAfterMs!).toBeLessThan(2000)
  })

  it('lets a client that keeps sending an oversized body read the 413 instead of a reset (lingering close)', async () => {
    // As curl or fetch would: the whole body is handed to the socket at once, and the answer comes
    // back while it is still being sent. A plain close leaves bytes unread and resets the connection.
    const agent = new http.Agent({ keepAlive: true })
    const post = (bytes: number) =>
      new Promise<{ status?: number; body?: string; error?: string }>((resolve) => {
        const req = http.request(
          { host: '127.0.0.1', port, method: 'POST', path: '/mcp', headers: { 'content-type': 'application/json', 'content-length': bytes }, agent },
          (res) => {
            let body = ''
            res.on('data', (d) => (body += d))
            res.on('end', () => resolve({ status: res.statusCode, body }))
            res.on('error', (e: NodeJS.ErrnoException) => resolve({ error: e.code }))
          },
        )
        req.on('error', (e: NodeJS.ErrnoException) => resolve({ error: e.code }))
        req.end(Buffer.alloc(bytes, 'a'))
      })
    const sizes = Array.from({ length: 40 }, (_, i) => Math.round((1.05 + (i % 8) * 0.5) * 1024 * 1024))
    const outcomes = []
    for (const bytes of sizes) outcomes.push(await post(bytes))
    agent.destroy()
    expect(outcomes.filter((o) => o.error)).toEqual([])
    for (const outcome of outcomes) {
      expect(outcome.status).toBe(413)
      expect(JSON.parse(outcome.body!).error.code).toBe(-32600)
    }
  })

  it('answers a request line or headers over 16 KiB with a 431 problem, read by the client, not a reset', async () => {
    for (const path of ['/api/v1/tools', '/mcp']) {
      const res = await fetch(`http://127.0.0.1:${port}${path}?q=${'A'.repeat(64 * 1024)}`).catch((e: Error) => e)
      expect(res, path).toBeInstanceOf(Response)
      const answer = res as Response
      expect(answer.status).toBe(431)
      expect(answer.headers.get('content-type')).toBe('application/problem+json')
      expect((await answer.json()).title).toBe('Request header fields too large')
    }
    const garbage = await raw(['NOT HTTP AT ALL\r\n\r\n'], 3000)
    expect(garbage.got).toMatch(/^HTTP\/1\.1 400/)
    expect(garbage.got).toContain('application/problem+json')
    expect(garbage.closedAfterMs).not.toBeNull()
  })

  it('keeps serving everyone else meanwhile', async () => {
    const slow = Array.from({ length: 5 }, () => raw([head('POST', '/mcp', { 'content-length': 100 }), '{'], 3000))
    const started = Date.now()
    const [mcp, page] = await Promise.all([
      fetch(`http://127.0.0.1:${port}/mcp`, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } }),
      fetch(`http://127.0.0.1:${port}/api/health`),
    ])
    expect(mcp.status).toBe(401)
    expect(page.status).toBe(200)
    expect(Date.now() - started).toBeLessThan(2000)
    await Promise.all(slow)
  })
})
