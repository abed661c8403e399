// Image introspection against real HTTP listeners on 127.0.0.1 (Spring Voyage seed: wait for
// /.well-known/agent.json, then GET /a2a/tools), through the real SSRF-guarded fetch.
import diagnostics from 'node:diagnostics_channel'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ImageIntrospectionError, introspectImage, joinEndpoint, readinessDelayMs, type ImageIntrospectionOptions } from '@/lib/discovery/introspect-image'
import { parseAddressPolicy } from '@/lib/net/address-policy'
import { createGuardedFetch } from '@/lib/outbound/guarded-fetch'
import { MAX_IMAGE_TOOLS } from '@/lib/image-tools/validate-image-tools'
import { freePort } from '@/scripts/free-port.mjs'
import { until } from '../support/until'

const guardedFetch = createGuardedFetch(parseAddressPolicy('loopback,private'))
const connectorSlugs: ReadonlySet<string> = new Set(['github'])
const METADATA = 'http://169.254.169.254/latest/meta-data/'

// The seed's worked example: two acme.* tools, in declaration order.
const ECHO = {
  name: 'acme.echo',
  description: 'Echoes the input string back.',
  inputSchema: { type: 'object', required: ['value'], properties: { value: { type: 'string' } } },
}
const TIMESTAMP = { name: 'acme.timestamp', description: 'Returns the current UTC timestamp.', inputSchema: { type: 'object', properties: {} } }
const CARD = { name: 'tools-agent', version: '1.4.2', description: 'Spring Voyage sample', url: 'http://tools-agent:8999/' }

// --- listeners -----------------------------------------------------------------------------------

interface Seen {
  method: string
  path: string
  at: number
  /** The client closed the connection before this listener finished its answer (a timeout or an abort). */
  dropped: boolean
}
type Handler = (req: http.IncomingMessage, res: http.ServerResponse, seen: Seen[]) => void

interface Listener {
  url: string
  port: number
  seen: Seen[]
  close(): Promise<void>
}

const listeners = new Set<http.Server>()
/** Every port a listener of this file was opened on. */
const ownPorts = new Set<number>()

async function listen(handler: Handler, port = 0): Promise<Listener> {
  const seen: Seen[] = []
  const server = http.createServer((req, res) => {
    const entry: Seen = { method: req.method ?? '', path: req.url ?? '', at: performance.now(), dropped: false }
    seen.push(entry)
    res.on('close', () => (entry.dropped = !res.writableFinished))
    handler(req, res, seen)
  })
  listeners.add(server)
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, '127.0.0.1', () => resolve())
  })
  const actual = (server.address() as AddressInfo).port
  ownPorts.add(actual)
  return { url: `http://127.0.0.1:${actual}`, port: actual, seen, close: () => closeServer(server) }
}

function closeServer(server: http.Server): Promise<void> {
  listeners.delete(server)
  server.closeAllConnections()
  return new Promise((resolve) => server.close(() => resolve()))
}

afterAll(async () => {
  await Promise.all([...listeners].map(closeServer))
})

const json = (res: http.ServerResponse, body: unknown, status = 200) => {
  res.writeHead(status, { 'content-type': 'application/json' })
  res.end(typeof body === 'string' ? body : JSON.stringify(body))
}

/** A listener that answers agent.json with the card and /a2a/tools with `tools` (or `toolsHandler`). */
function agent(tools: unknown, toolsHandler?: (req: http.IncomingMessage, res: http.ServerResponse) => void, prefix = ''): Handler {
  return (req, res) => {
    if (req.url === `${prefix}/.well-known/agent.json`) return json(res, CARD)
    if (req.url === `${prefix}/a2a/tools`) return toolsHandler ? toolsHandler(req, res) : json(res, tools)
    json(res, { error: 'not found' }, 404)
  }
}

// --- every connection and request the HTTP client makes ------------------------------------------

const outbound: string[] = []
const onRequest = (message: unknown) => {
  const { request } = message as { request: { origin: string | URL; path: string } }
  outbound.push(`request ${String(request.origin)}${request.path}`)
}
const onConnect = (message: unknown) => {
  const { connectParams } = message as { connectParams: { hostname: string; port: string | number } }
  outbound.push(`connect ${connectParams.hostname}:${connectParams.port}`)
}
beforeEach(() => {
  outbound.length = 0
  diagnostics.subscribe('undici:request:create', onRequest)
  diagnostics.subscribe('undici:client:beforeConnect', onConnect)
})
afterEach(() => {
  diagnostics.unsubscribe('undici:request:create', onRequest)
  diagnostics.unsubscribe('undici:client:beforeConnect', onConnect)
})

// --- helpers -------------------------------------------------------------------------------------

const options = (over: Partial<ImageIntrospectionOptions> = {}): ImageIntrospectionOptions => ({
  fetch: guardedFetch,
  connectorSlugs,
  // generous where time is not what a test is about; the timing tests pass their own small bounds
  readinessTimeoutMs: 10_000,
  attemptTimeoutMs: 2_000,
  toolsTimeoutMs: 5_000,
  ...over,
})

async function failure(promise: Promise<unknown>): Promise<ImageIntrospectionError> {
  try {
    await promise
  } catch (e) {
    expect(e).toBeInstanceOf(ImageIntrospectionError)
    return e as ImageIntrospectionError
  }
  throw new Error('introspection succeeded; a failure was expected')
}

/**
 * The real pause between readiness attempts, recorded: what the introspection chose to wait is
 * observed, not how long the machine took (wall-clock bounds belong to scripts/bench/).
 */
function recordedSleep(): { pauses: number[]; sleep: (ms: number) => Promise<void> } {
  const pauses: number[] = []
  return { pauses, sleep: (ms) => (pauses.push(ms), new Promise((resolve) => setTimeout(resolve, ms))) }
}

/** Each pause is the backoff's (the last one may be shortened to fit), and all of them fit in `timeoutMs`. */
function expectBackoffWithin(pauses: number[], timeoutMs: number) {
  pauses.forEach((ms, i) => expect(ms, `pause ${i + 1}`).toBeLessThanOrEqual(readinessDelayMs(i + 1)))
  pauses.slice(0, -1).forEach((ms, i) => expect(ms, `pause ${i + 1}`).toBe(readinessDelayMs(i + 1)))
  expect(pauses.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(timeoutMs)
}

// --- tests ---------------------------------------------------------------------------------------

describe('introspectImage: a well-behaved listener', () => {
  it('waits for agent.json, then returns the declared tools in declaration order', async () => {
    const listener = await listen(agent([ECHO, TIMESTAMP]))
    const result = await introspectImage(listener.url, options())
    expect(result.tools).toEqual([ECHO, TIMESTAMP])
    expect(result.refused).toEqual([])
    expect(result.attempts).toBe(1)
    expect(result.agentCard).toEqual({ name: 'tools-agent', version: '1.4.2' })
    expect(result.timings.readyMs).toBeGreaterThanOrEqual(0)
    expect(result.timings.toolsMs).toBeGreaterThanOrEqual(0)
    expect(listener.seen.map((s) => `${s.method} ${s.path}`)).toEqual(['GET /.well-known/agent.json', 'GET /a2a/tools'])
    // Order is the listener's, not alphabetical.
    const reversed = await listen(agent([TIMESTAMP, ECHO]))
    expect((await introspectImage(reversed.url, options())).tools.map((t) => t.name)).toEqual(['acme.timestamp', 'acme.echo'])
  })

  it('accepts an empty surface and an agent card without name or version', async () => {
    const listener = await listen((req, res) => (req.url === '/.well-known/agent.json' ? json(res, {}) : json(res, [])))
    const result = await introspectImage(listener.url, options())
    expect(result).toMatchObject({ agentCard: {}, tools: [], refused: [], attempts: 1 })
  })

  it('joins paths onto an endpoint with a trailing slash or a path prefix', async () => {
    const root = await listen(agent([ECHO]))
    expect((await introspectImage(`${root.url}/`, options())).tools).toEqual([ECHO])
    const prefixed = await listen(agent([ECHO, TIMESTAMP], undefined, '/agents/a1'))
    for (const endpoint of [`${prefixed.url}/agents/a1`, `${prefixed.url}/agents/a1/`, `${prefixed.url}/agents/a1//?probe=1#x`])
      expect((await introspectImage(endpoint, options())).tools).toEqual([ECHO, TIMESTAMP])
    expect(new Set(prefixed.seen.map((s) => s.path))).toEqual(new Set(['/agents/a1/.well-known/agent.json', '/agents/a1/a2a/tools']))
    expect(joinEndpoint('http://h:8999', 'a2a/tools')).toBe('http://h:8999/a2a/tools')
    expect(joinEndpoint('http://h:8999/x/y/', '/a2a/tools')).toBe('http://h:8999/x/y/a2a/tools')
  })
})

describe('introspectImage: readiness', () => {
  it('retries a listener that starts slowly (503 twice), with backoff of 250 ms then doubling', async () => {
    let cards = 0
    const listener = await listen((req, res) => {
      if (req.url === '/.well-known/agent.json' && ++cards <= 2) return json(res, { error: 'starting' }, 503)
      agent([ECHO, TIMESTAMP])(req, res, [])
    })
    const result = await introspectImage(listener.url, options())
    expect(result.tools).toEqual([ECHO, TIMESTAMP])
    expect(result.attempts).toBe(3)
    const probes = listener.seen.filter((s) => s.path === '/.well-known/agent.json').map((s) => s.at)
    expect(probes).toHaveLength(3)
    const gaps = probes.slice(1).map((at, i) => at - probes[i])
    expect(gaps[0]).toBeGreaterThanOrEqual(245)
    // Lower bounds only: a busy machine makes the pauses longer, never shorter.
    expect(gaps[1]).toBeGreaterThanOrEqual(495)
    expect(result.timings.readyMs).toBeGreaterThanOrEqual(745)
  })

  it('retries while the port is not listening yet, and succeeds once it is opened', async () => {
    const port = await freePort()
    let opened: Promise<Listener> | undefined
    // The port opens during the first pause: the first attempt was refused, the second one succeeds.
    const pauses: number[] = []
    const sleep = async (ms: number) => {
      pauses.push(ms)
      opened ??= listen(agent([ECHO]), port)
      await opened
    }
    try {
      const result = await introspectImage(`http://127.0.0.1:${port}`, options({ sleep }))
      expect(result.tools).toEqual([ECHO])
      expect(result.attempts).toBe(2)
      expect(pauses).toEqual([250])
      expect((await opened)!.seen.map((s) => s.path)).toEqual(['/.well-known/agent.json', '/a2a/tools'])
    } finally {
      await (await opened)?.close()
    }
  })

  it('backs off 250 ms, doubling, capped at 4 s (injected sleep)', async () => {
    const listener = await listen((req, res, seen) => {
      if (req.url === '/.well-known/agent.json' && seen.length <= 7) return json(res, { error: 'starting' }, 503)
      agent([ECHO])(req, res, [])
    })
    const pauses: number[] = []
    const result = await introspectImage(listener.url, options({ readinessTimeoutMs: 60_000, sleep: async (ms) => void pauses.push(ms) }))
    expect(result.attempts).toBe(8)
    expect(pauses).toEqual([250, 500, 1000, 2000, 4000, 4000, 4000])
    expect([1, 2, 3, 4, 5, 6, 10].map(readinessDelayMs)).toEqual([250, 500, 1000, 2000, 4000, 4000, 4000])
  })

  it('gives up within readinessTimeoutMs when agent.json never answers 200, naming the last answer', async () => {
    const listener = await listen((req, res) => json(res, { error: 'warming up' }, 503))
    const { pauses, sleep } = recordedSleep()
    const started = performance.now()
    const error = await failure(introspectImage(listener.url, options({ readinessTimeoutMs: 1_200, sleep })))
    // Attempts at 0, 250 and 750 ms, then a last one after a pause shortened to fit before the deadline;
    // on a busy machine fewer may fit, but never a pause past the deadline nor an attempt after it.
    expect(error).toMatchObject({ step: 'readiness', failure: 'http_status', status: 503 })
    expect(error.message).toContain(`agent listener at ${listener.url} not ready after 1.2 s (${error.attempts} attempts): last answer HTTP 503`)
    expect(error.message).toContain('warming up')
    expect(error.attempts).toBeGreaterThanOrEqual(3)
    expect(listener.seen).toHaveLength(error.attempts)
    expect(pauses).toHaveLength(error.attempts - 1)
    expectBackoffWithin(pauses, 1_200)
    // A lower bound: it did not give up before the deadline (a busy machine only makes this longer).
    expect(performance.now() - started).toBeGreaterThanOrEqual(1_050)
    const probes = listener.seen.map((s) => s.at)
    expect(probes[1] - probes[0]).toBeGreaterThanOrEqual(245)
    expect(probes[2] - probes[1]).toBeGreaterThanOrEqual(495)
    expect(listener.seen.every((s) => s.path === '/.well-known/agent.json')).toBe(true)
  })

  it('gives up within the bound when the listener never opens', async () => {
    const port = await freePort()
    const { pauses, sleep } = recordedSleep()
    const error = await failure(introspectImage(`http://127.0.0.1:${port}/`, options({ readinessTimeoutMs: 800, sleep })))
    expect(error).toMatchObject({ step: 'readiness', failure: 'network' })
    expect(error.attempts).toBeGreaterThanOrEqual(2)
    expect(error.message).toMatch(/not ready after 800 ms \(\d attempts\): last answer .*ECONNREFUSED/)
    // The bound is the deadline: every pause fits in it, and no attempt was made without a pause.
    expect(pauses).toHaveLength(error.attempts - 1)
    expectBackoffWithin(pauses, 800)
  })

  it('makes no attempt after the one a shortened pause left time for, even when the timer fires early', async () => {
    const port = await freePort()
    // Node's timers may fire up to a millisecond before performance.now() says the pause is over;
    // here they fire 3 ms early, every time.
    const pauses: number[] = []
    const early = (ms: number) => (pauses.push(ms), new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, ms - 3))))
    const error = await failure(introspectImage(`http://127.0.0.1:${port}/`, options({ readinessTimeoutMs: 800, sleep: early })))
    expect(error).toMatchObject({ step: 'readiness', failure: 'network' })
    // 250 ms, then the 500 ms pause shortened to leave one attempt its time: that attempt was the last.
    expect(pauses).toHaveLength(2)
    expect(pauses[0]).toBe(readinessDelayMs(1))
    expect(pauses[1]).toBeLessThan(readinessDelayMs(2))
    expect(error.attempts).toBe(3)
  })

  it('bounds each attempt by attemptTimeoutMs when agent.json hangs', async () => {
    const listener = await listen(() => {
      /* never answers */
    })
    const { pauses, sleep } = recordedSleep()
    const error = await failure(introspectImage(listener.url, options({ readinessTimeoutMs: 1_000, attemptTimeoutMs: 200, sleep })))
    // 0–200 ms, pause 250, 450–650 ms, pause shortened to 250, 900–1000 ms (the last attempt gets what is
    // left); on a busy machine the last one may not fit, which is not a defect.
    expect(error).toMatchObject({ step: 'readiness', failure: 'timeout' })
    expect(error.attempts).toBeGreaterThanOrEqual(2)
    const [, lastBound] = /not ready after 1 s \(\d attempts\): last answer no answer within (\d+) ms/.exec(error.message) ?? []
    expect(Number(lastBound)).toBeGreaterThan(0)
    expect(Number(lastBound)).toBeLessThanOrEqual(200)
    expectBackoffWithin(pauses, 1_000)
    // Each attempt was ended by the client's own bound: the listener saw each one, and all were dropped.
    expect(pauses).toHaveLength(error.attempts - 1)
    expect(listener.seen).toHaveLength(error.attempts)
    await until('every unanswered attempt dropped', () => listener.seen.every((s) => s.dropped))
  })

  it('keeps waiting while agent.json is not a JSON object', async () => {
    let calls = 0
    const listener = await listen((req, res) => {
      if (req.url === '/.well-known/agent.json') return ++calls === 1 ? json(res, '<html>booting</html>') : calls === 2 ? json(res, [1]) : json(res, CARD)
      agent([ECHO])(req, res, [])
    })
    const result = await introspectImage(listener.url, options())
    expect(result.attempts).toBe(3)
    expect(result.tools).toEqual([ECHO])

    const never = await listen((req, res) => json(res, 'not json'))
    const error = await failure(introspectImage(never.url, options({ readinessTimeoutMs: 400 })))
    expect(error).toMatchObject({ step: 'readiness', failure: 'invalid_json' })
    expect(error.message).toContain('last answer invalid JSON')
  })

  it('stops when aborted', async () => {
    const controller = new AbortController()
    // Cancelled as the first 503 goes out: the abort lands in the pause before the second attempt.
    const listener = await listen((req, res) => {
      json(res, {}, 503)
      controller.abort(new Error('deploy cancelled'))
    })
    await expect(introspectImage(listener.url, options({ signal: controller.signal }))).rejects.toThrow('deploy cancelled')
    // Readiness alone would keep asking for 10 s: one attempt shows the wait was cut short.
    expect(listener.seen.map((s) => s.path)).toEqual(['/.well-known/agent.json'])
  })
})

describe('introspectImage: /a2a/tools', () => {
  it('fails on HTTP 500 with the status and the start of the body', async () => {
    const listener = await listen(agent(null, (req, res) => json(res, { error: 'registry exploded' }, 500)))
    const error = await failure(introspectImage(listener.url, options()))
    expect(error).toMatchObject({ step: 'tools', failure: 'http_status', status: 500, attempts: 1 })
    expect(error.message).toContain(`GET ${listener.url}/a2a/tools answered HTTP 500`)
    expect(error.message).toContain('registry exploded')
  })

  it('fails on invalid JSON with a clear message', async () => {
    const listener = await listen(agent(null, (req, res) => json(res, '[{"name": "acme.echo",')))
    const error = await failure(introspectImage(listener.url, options()))
    expect(error).toMatchObject({ step: 'tools', failure: 'invalid_json', attempts: 1 })
    expect(error.message).toMatch(/a2a\/tools did not answer JSON: invalid JSON \(.+\)/)

    const empty = await listen(agent(null, (req, res) => res.end()))
    expect((await failure(introspectImage(empty.url, options()))).message).toContain('did not answer JSON: an empty body')
  })

  it('fails on a JSON object instead of an array', async () => {
    const listener = await listen(agent({ tools: [ECHO] }))
    const error = await failure(introspectImage(listener.url, options()))
    expect(error).toMatchObject({ step: 'tools', failure: 'not_an_array' })
    expect(error.message).toContain('answered a JSON object; expected a JSON array')
  })

  it('keeps valid entries in order and refuses non-canonical, duplicate and reserved ids one by one', async () => {
    const entries = [
      ECHO,
      { ...ECHO, name: 'Acme.Echo' },
      TIMESTAMP,
      { ...ECHO, name: 'acme.echo', description: 'again' },
      { ...ECHO, name: 'toolroom.list_tools' },
      { ...ECHO, name: 'github.create_issue' },
      { ...ECHO, name: 'echo' },
      { name: 'acme.no_schema', description: 'no schema' },
      { ...ECHO, name: 'acme.last' },
    ]
    const listener = await listen(agent(entries))
    const result = await introspectImage(listener.url, options())
    expect(result.tools.map((t) => t.name)).toEqual(['acme.echo', 'acme.timestamp', 'acme.last'])
    expect(result.tools[0]).toEqual(ECHO)
    expect(result.refused.map((e) => [e.field, e.rule])).toEqual([
      ['tools[1].name', 'canonical-id'],
      ['tools[3].name', 'duplicate'],
      ['tools[4].name', 'reserved-namespace'],
      ['tools[5].name', 'reserved-namespace'],
      ['tools[6].name', 'canonical-id'],
      ['tools[7].inputSchema', 'json-schema'],
    ])
    expect(result.refused[2].message).toContain('"toolroom.*" is reserved')
    expect(result.refused[3].message).toContain('reserved for connector "github"')
    expect(result.refused[1]).toMatchObject({ name: 'acme.echo' })
  })

  it(`refuses a surface of more than ${MAX_IMAGE_TOOLS} tools as too large`, async () => {
    const many = Array.from({ length: MAX_IMAGE_TOOLS + 1 }, (_, i) => ({ ...ECHO, name: `acme.t${i}` }))
    const listener = await listen(agent(many))
    const error = await failure(introspectImage(listener.url, options()))
    expect(error).toMatchObject({ step: 'tools', failure: 'too_large' })
  })

  it.each([
    ['with content-length', false],
    ['chunked, without content-length', true],
  ])('fails on a body over the limit (3 MiB, %s)', async (_label, chunked) => {
    // Valid JSON padded with whitespace: the limit is on bytes, not on what they mean.
    const big = Buffer.from(`[${JSON.stringify(ECHO)},${' '.repeat(3 * 1024 * 1024)}${JSON.stringify(TIMESTAMP)}]`)
    expect(big.byteLength).toBeGreaterThan(3 * 1024 * 1024)
    const listener = await listen(
      agent(null, (req, res) => {
        if (!chunked) {
          res.writeHead(200, { 'content-type': 'application/json', 'content-length': big.byteLength })
          return res.end(big)
        }
        res.writeHead(200, { 'content-type': 'application/json' })
        for (let offset = 0; offset < big.byteLength; offset += 64 * 1024) res.write(big.subarray(offset, offset + 64 * 1024))
        res.end()
      }),
    )
    const error = await failure(introspectImage(listener.url, options()))
    expect(error).toMatchObject({ step: 'tools', failure: 'too_large' })
    expect(error.message).toContain('over the limit of 1 MiB')
    // and under a raised limit the same body is read
    const result = await introspectImage(listener.url, options({ maxBytes: 8 * 1024 * 1024 }))
    expect(result.tools).toEqual([ECHO, TIMESTAMP])
  })

  it('times out within the bound when /a2a/tools never answers', async () => {
    const listener = await listen(
      agent(null, () => {
        /* never answers */
      }),
    )
    const error = await failure(introspectImage(listener.url, options({ toolsTimeoutMs: 300 })))
    expect(error).toMatchObject({ step: 'tools', failure: 'timeout', attempts: 1 })
    expect(error.message).toContain('no answer within 300 ms')
    // Ended by the client's bound, once: the listener saw one request for the tools, and it was dropped.
    expect(listener.seen.map((s) => s.path)).toEqual(['/.well-known/agent.json', '/a2a/tools'])
    await until('the unanswered /a2a/tools request dropped', () => listener.seen[1].dropped)
  })

  it('times out when /a2a/tools sends headers and then stalls mid-body', async () => {
    const listener = await listen(
      agent(null, (req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' })
        res.write('[{"name": "acme.echo", ')
      }),
    )
    const error = await failure(introspectImage(listener.url, options({ toolsTimeoutMs: 300 })))
    expect(error).toMatchObject({ step: 'tools', failure: 'timeout' })
    expect(error.message).toContain('no answer within 300 ms')
    // The bound covers the body too: the stalled answer was cut off by the client, not finished.
    expect(listener.seen.map((s) => s.path)).toEqual(['/.well-known/agent.json', '/a2a/tools'])
    await until('the stalled /a2a/tools answer dropped', () => listener.seen[1].dropped)
  })
})

describe('introspectImage: SSRF guard', () => {
  // Every request went to the listener under test; every connection went to one of this file's own
  // loopback listeners (undici may reconnect to the origin of an earlier, aborted request); nothing
  // was sent to, or connected to, anything else.
  const onlyListener = (listener: Listener) => {
    const log = outbound.join('\n')
    expect(outbound.length, log).toBeGreaterThan(0)
    for (const line of outbound) {
      const connect = /^connect 127\.0\.0\.1:(\d+)$/.exec(line)
      if (connect) expect(ownPorts.has(Number(connect[1])), log).toBe(true)
      else expect(line, log).toMatch(new RegExp(`^request ${listener.url}/`))
    }
    expect(log).toContain(`connect 127.0.0.1:${listener.port}`)
    expect(log).not.toContain('169.254')
  }

  it('refuses at once when agent.json redirects to cloud metadata, and reaches nothing else', async () => {
    const listener = await listen((req, res) => {
      res.writeHead(302, { location: METADATA })
      res.end()
    })
    const { pauses, sleep } = recordedSleep()
    const error = await failure(introspectImage(listener.url, options({ sleep })))
    expect(error).toMatchObject({ step: 'readiness', failure: 'refused', attempts: 1 })
    expect(error.message).toContain('refused by the outbound guard')
    expect(error.message).toContain('169.254.169.254')
    // Never retried: no pause, and a second attempt would show in `seen`.
    expect(pauses).toEqual([])
    expect(listener.seen.map((s) => s.path)).toEqual(['/.well-known/agent.json'])
    onlyListener(listener)
  })

  it('refuses when /a2a/tools redirects to cloud metadata, and reaches nothing else', async () => {
    const listener = await listen(
      agent(null, (req, res) => {
        res.writeHead(307, { location: METADATA })
        res.end()
      }),
    )
    const error = await failure(introspectImage(listener.url, options()))
    expect(error).toMatchObject({ step: 'tools', failure: 'refused', attempts: 1 })
    expect(error.message).toContain('169.254.169.254')
    expect(listener.seen.map((s) => s.path)).toEqual(['/.well-known/agent.json', '/a2a/tools'])
    onlyListener(listener)
  })

  it('refuses a metadata endpoint outright, without connecting', async () => {
    const { pauses, sleep } = recordedSleep()
    const error = await failure(introspectImage('http://169.254.169.254/', options({ sleep })))
    expect(error).toMatchObject({ step: 'readiness', failure: 'refused', attempts: 1 })
    expect(pauses).toEqual([])
    expect(outbound).toEqual([])
  })

  it('refuses an endpoint that is not an http URL', async () => {
    expect(await failure(introspectImage('not a url', options()))).toMatchObject({ step: 'readiness', failure: 'refused', attempts: 0 })
    expect(await failure(introspectImage('file:///etc/passwd', options()))).toMatchObject({ step: 'readiness', failure: 'refused', attempts: 0 })
    const withCredentials = await failure(introspectImage('http://admin:s3cret@127.0.0.1:8999/', options()))
    expect(withCredentials).toMatchObject({ step: 'readiness', failure: 'refused', attempts: 0 })
    expect(withCredentials.message).toContain('must not carry a user name or password')
    expect(withCredentials.message).not.toContain('s3cret')
    expect(outbound).toEqual([])
  })
})
