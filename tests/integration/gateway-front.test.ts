// The gateway front on the public port, from raw sockets: slow-loris headers, bodies that never
// finish (on /mcp and on the paths it passes to the web app), oversized bodies and early answers
// close the connection by the front's own limit or answer, and the front keeps serving everyone else.
//
// Which limit closed a connection is shown by construction, not by a stopwatch: each front below has
// one short limit and the others effectively never (ten minutes), and the client waits far longer
// than the short limit before it gives up itself. A connection the front closed was closed by that
// limit, or (on the patient front, where no limit can fire) by the answer itself.
import http from 'node:http'
import net from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createGatewayServer, type GatewayTimeouts } from '@/lib/gateway/server'
import { listen, listenOn, type Listening } from '../support/listen'
import { until } from '../support/until'

const NEVER = 10 * 60_000
const SHORT = { headersMs: 1000, requestMs: 2500, mcpBodyMs: 1000 }
/** Long enough that the client only gives up when the front failed to close: ten times the short limit. */
const giveUpAfter = (limitMs: number) => 10 * limitMs
/** On the patient front the answer itself closes the connection, within milliseconds: far more than that. */
const GIVE_UP_ON_PATIENT_MS = 10_000

let web: Listening
const fronts: Listening[] = []
/** Ports of fronts whose only short limit is the one named, and of one with none at all. */
const port = { headers: 0, request: 0, mcpBody: 0, patient: 0 }

interface RawOutcome {
  got: string
  /** Who ended the connection: the front, or this client after waiting `giveUpAfterMs`. */
  closedBy: 'server' | 'client'
  /** How many of `steps` were written before the connection ended. */
  stepsSent: number
}

/**
 * Opens a raw connection, writes `steps` (text, bytes, or a pause between them), then waits for the
 * front to close it; the client ends it itself after `giveUpAfterMs`, once `release` settles, or once
 * what came back is `enough`. `open` holds the connection while it is open.
 */
async function raw(
  to: number,
  steps: Array<string | Buffer | { waitMs: number }>,
  { giveUpAfterMs, release, enough, open }: { giveUpAfterMs: number; release?: Promise<unknown>; enough?: (got: string) => boolean; open?: Set<net.Socket> },
): Promise<RawOutcome> {
  const socket = net.connect(to, '127.0.0.1')
  let got = ''
  let closedBy: RawOutcome['closedBy'] | null = null
  let stepsSent = 0
  let answered: () => void = () => {}
  const heard = new Promise<void>((resolve) => (answered = resolve))
  socket.on('data', (d) => {
    got += d.toString('latin1')
    if (enough?.(got)) answered()
  })
  socket.on('error', () => {})
  const closed = new Promise<void>((resolve) =>
    socket.on('close', () => {
      closedBy ??= 'server'
      open?.delete(socket)
      resolve()
    }),
  )
  let giveUp: ReturnType<typeof setTimeout> | undefined
  const gaveUp = new Promise<void>((resolve) => (giveUp = setTimeout(resolve, giveUpAfterMs)))
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()))
  open?.add(socket)
  for (const step of steps) {
    if (closedBy !== null) break
    if (typeof step === 'object' && 'waitMs' in step) await new Promise((r) => setTimeout(r, step.waitMs))
    else socket.write(step)
    stepsSent++
  }
  await Promise.race([closed, gaveUp, heard, ...(release ? [release] : [])])
  clearTimeout(giveUp)
  closedBy ??= 'client'
  socket.destroy()
  return { got, closedBy, stepsSent }
}

async function startFront(timeouts: Partial<GatewayTimeouts>): Promise<number> {
  const front = createGatewayServer({
    port: 0,
    upstream: web.url,
    timeouts: { headersMs: NEVER, requestMs: NEVER, mcpBodyMs: NEVER, checkEveryMs: 100, ...timeouts },
  })
  const listening = await listenOn(front)
  fronts.push(listening)
  return Number(new URL(listening.url).port)
}

beforeAll(async () => {
  // Stands in for the Next.js server behind the front.
  web = await listen((req, res) => {
    if (req.url === '/api/early') return void res.writeHead(401, { 'content-type': 'application/problem+json' }).end('{"title":"Unauthorized"}')
    let size = 0
    req.on('data', (c: Buffer) => (size += c.length))
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ received: size })))
  })
  port.headers = await startFront({ headersMs: SHORT.headersMs })
  port.request = await startFront({ requestMs: SHORT.requestMs })
  port.mcpBody = await startFront({ mcpBodyMs: SHORT.mcpBodyMs })
  port.patient = await startFront({})
})

afterAll(async () => {
  await Promise.all(fronts.map((f) => f.close()))
  await web?.close()
})

const head = (method: string, path: string, headers: Record<string, string | number>) =>
  `${method} ${path} HTTP/1.1\r\nhost: 127.0.0.1\r\nconnection: keep-alive\r\n${Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('')}\r\n`

describe('the gateway front bounds connections', () => {
  it('cuts off headers trickled slowly (slow-loris), on /mcp and on the paths it passes on', async () => {
    for (const path of ['/mcp', '/api/v1/tools']) {
      // A header line every 150 ms for longer than the client waits: only the headers limit ends it.
      const lines = giveUpAfter(SHORT.headersMs) / 150
      const trickle = [`GET ${path} HTTP/1.1\r\nhost: x\r\n`, ...Array.from({ length: lines }, (_, i) => [{ waitMs: 150 }, `x-slow-${i}: 1\r\n`]).flat()]
      const { got, closedBy, stepsSent } = await raw(port.headers, trickle, { giveUpAfterMs: giveUpAfter(SHORT.headersMs) })
      expect(closedBy, path).toBe('server')
      expect(stepsSent, path).toBeLessThan(trickle.length)
      expect(got, path).toMatch(/^HTTP\/1\.1 408/)
      expect(got, path).toContain('the request did not arrive in time')
    }
  })

  it('answers an /mcp body that never completes with 408 and closes the connection', async () => {
    const { got, closedBy } = await raw(port.mcpBody, [head('POST', '/mcp', { 'content-type': 'application/json', 'content-length': 100 }), '{"jsonrpc":'], {
      giveUpAfterMs: giveUpAfter(SHORT.mcpBodyMs),
    })
    expect(got).toMatch(/^HTTP\/1\.1 408/)
    expect(got).toMatch(/connection: close/i)
    // The /mcp body limit's own JSON-RPC answer, not the parser's request timeout.
    expect(got).toContain('"message":"the request body did not arrive in time"')
    expect(closedBy).toBe('server')
  })

  it('cuts off an upload to the web app that stalls, and passes one that keeps coming', async () => {
    const stalled = await raw(port.request, [head('POST', '/api/v1/apply', { 'content-type': 'application/yaml', 'content-length': 1000 }), 'kind: Tool\n'], {
      giveUpAfterMs: giveUpAfter(SHORT.requestMs),
    })
    expect(stalled.closedBy).toBe('server')
    expect(stalled.got).toMatch(/^HTTP\/1\.1 408/)
    const chunk = Buffer.alloc(256 * 1024, 'a')
    const steady = await raw(
      port.request,
      [head('POST', '/api/v1/apply', { 'content-length': chunk.length * 4 }), chunk, { waitMs: 200 }, chunk, { waitMs: 200 }, chunk, { waitMs: 200 }, chunk],
      { giveUpAfterMs: giveUpAfter(SHORT.requestMs), enough: (got) => got.includes('"received":') },
    )
    expect(steady.got).toMatch(/^HTTP\/1\.1 200/)
    expect(steady.got).toContain(`"received":${chunk.length * 4}`)
  })

  it('closes the connection after the web app answers before the body arrived (no 10 MB left unread on a kept-alive connection)', async () => {
    const { got, closedBy } = await raw(
      port.patient,
      [head('POST', '/api/early', { 'content-type': 'application/json', 'content-length': 10 * 1024 * 1024 }), Buffer.alloc(256 * 1024, 'a')],
      { giveUpAfterMs: GIVE_UP_ON_PATIENT_MS },
    )
    expect(got).toMatch(/^HTTP\/1\.1 401/)
    expect(got).toMatch(/connection: close/i)
    // Closed by the answer: this front has no limit that could have closed it.
    expect(closedBy).toBe('server')
  })

  it('refuses an /mcp body over the limit with 413 without reading it, and closes the connection', async () => {
    // Closed by the answer: this front has no limit that could have closed it.
    const declared = await raw(
      port.patient,
      [head('POST', '/mcp', { 'content-type': 'application/json', 'content-length': 10 * 1024 * 1024 }), Buffer.alloc(64 * 1024, 'a')],
      { giveUpAfterMs: GIVE_UP_ON_PATIENT_MS },
    )
    expect(declared.got).toMatch(/^HTTP\/1\.1 413/)
    expect(declared.closedBy).toBe('server')
    const chunked = Buffer.alloc(2 * 1024 * 1024, 'a')
    // The chunk never ends (no terminating chunk follows): only the front can end this request.
    const undeclared = await raw(
      port.patient,
      [head('POST', '/mcp', { 'content-type': 'application/json', 'transfer-encoding': 'chunked' }), `${chunked.length.toString(16)}\r\n`, chunked],
      { giveUpAfterMs: GIVE_UP_ON_PATIENT_MS },
    )
    expect(undeclared.got).toMatch(/^HTTP\/1\.1 413/)
    expect(undeclared.closedBy).toBe('server')
  })

  it('lets a client that keeps sending an oversized body read the 413 instead of a reset (lingering close)', async () => {
    // As curl or fetch would: the whole body is handed to the socket at once, and the answer comes
    // back while it is still being sent. A plain close leaves bytes unread and resets the connection.
    const agent = new http.Agent({ keepAlive: true })
    const post = (bytes: number) =>
      new Promise<{ status?: number; body?: string; error?: string }>((resolve) => {
        const req = http.request(
          {
            host: '127.0.0.1',
            port: port.patient,
            method: 'POST',
            path: '/mcp',
            headers: { 'content-type': 'application/json', 'content-length': bytes },
            agent,
          },
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
      const res = await fetch(`http://127.0.0.1:${port.patient}${path}?q=${'A'.repeat(64 * 1024)}`).catch((e: Error) => e)
      expect(res, path).toBeInstanceOf(Response)
      const answer = res as Response
      expect(answer.status).toBe(431)
      expect(answer.headers.get('content-type')).toBe('application/problem+json')
      expect((await answer.json()).title).toBe('Request header fields too large')
    }
    const garbage = await raw(port.patient, ['NOT HTTP AT ALL\r\n\r\n'], { giveUpAfterMs: GIVE_UP_ON_PATIENT_MS })
    expect(garbage.got).toMatch(/^HTTP\/1\.1 400/)
    expect(garbage.got).toContain('application/problem+json')
    expect(garbage.closedBy).toBe('server')
  })

  it('keeps serving everyone else meanwhile', async () => {
    // Five clients hold /mcp bodies open on a front that never times them out; the others are answered
    // while all five are still held, so nobody waited for them.
    const held = new Set<net.Socket>()
    let release: () => void = () => {}
    const released = new Promise<void>((resolve) => (release = resolve))
    const slow = Array.from({ length: 5 }, () =>
      raw(port.patient, [head('POST', '/mcp', { 'content-length': 100 }), '{'], { giveUpAfterMs: GIVE_UP_ON_PATIENT_MS, release: released, open: held }),
    )
    await until('five slow clients connected', () => held.size === 5)
    const [mcp, page] = await Promise.all([
      fetch(`http://127.0.0.1:${port.patient}/mcp`, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } }),
      fetch(`http://127.0.0.1:${port.patient}/api/health`),
    ])
    expect(mcp.status).toBe(401)
    expect(page.status).toBe(200)
    expect(held.size).toBe(5)
    release()
    expect((await Promise.all(slow)).map((o) => [o.closedBy, o.got])).toEqual(Array.from({ length: 5 }, () => ['client', '']))
  })
})

describe('the gateway front and its pooled connections to the web app', () => {
  // A web app that closes a kept-alive connection just as the front sends the next request on it: what
  // Node's server does to a connection idle for its keepAliveTimeout, when the request and the close
  // cross. Here every connection's second request is met by the close, so the race is always lost.
  let closing: Listening
  let front: Listening
  const served = new WeakMap<object, number>()
  beforeAll(async () => {
    closing = await listen((req, res) => {
      const count = (served.get(req.socket) ?? 0) + 1
      served.set(req.socket, count)
      if (count > 1) return void req.socket.destroy()
      req.resume()
      req.on('end', () => res.writeHead(200, { 'content-type': 'text/plain', connection: 'keep-alive' }).end(`served ${req.method} ${req.url}`))
    })
    front = await listenOn(createGatewayServer({ port: 0, upstream: closing.url, timeouts: { headersMs: NEVER, requestMs: NEVER, mcpBodyMs: NEVER } }))
  })
  afterAll(async () => {
    await front?.close()
    await closing?.close()
  })

  it('sends a request without a body again on a fresh connection, instead of answering 502', async () => {
    for (const path of ['/a', '/b', '/c']) {
      const res = await fetch(`${front.url}${path}`)
      expect(res.status, path).toBe(200)
      expect(await res.text()).toBe(`served GET ${path}`)
    }
  })

  it('does not send a body twice: a POST caught by the close is answered 502, saying the web app was not reachable', async () => {
    expect((await fetch(`${front.url}/first`)).status).toBe(200)
    const res = await fetch(`${front.url}/post`, { method: 'POST', body: 'once only' })
    expect(res.status).toBe(502)
    expect(await res.text()).toBe('the web server is not reachable')
  })
})
