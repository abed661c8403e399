// A fetch for the pooled MCP client sessions, on node:http keep-alive agents: per call it costs a
// fraction of undici's fetch (measured in BENCHMARKS.md), which matters on the gateway's hot path.
// The same SSRF policy as every other outbound request is applied at connect time, after DNS, and
// answers are bounded in time and size. JSON answers are buffered; event streams are streamed.
import dns from 'node:dns'
import { setMaxListeners } from 'node:events'
import http from 'node:http'
import https from 'node:https'
import { isIP } from 'node:net'
import { Readable } from 'node:stream'
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js'
import { type AddressPolicy, parseAddressPolicy } from '@/lib/discovery/outbound/address-policy'
import { OutboundError } from '@/lib/discovery/outbound/guarded-fetch'
import { withTraceContext } from '@/lib/observability/tracing'

export function createNodeFetch(policy: AddressPolicy, limits: { timeoutMs: number; maxBytes: number }): FetchLike {
  const lookup = (hostname: string, options: dns.LookupOptions, callback: (err: Error | null, address: string | dns.LookupAddress[], family?: number) => void) => {
    dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, [])
      const byName = policy.allowsHostName(hostname)
      for (const { address } of addresses) {
        const refusal = policy.refusal(address)
        if (refusal && !(byName && !/never allowed/.test(refusal))) return callback(new OutboundError('refused', `${hostname} resolves to ${refusal}`), [])
      }
      if (options.all) callback(null, addresses)
      else callback(null, addresses[0].address, addresses[0].family)
    })
  }
  const agents = {
    'http:': new http.Agent({ keepAlive: true, maxSockets: 256, lookup } as http.AgentOptions),
    'https:': new https.Agent({ keepAlive: true, maxSockets: 256, lookup } as https.AgentOptions),
  }

  return (input, init) =>
    new Promise<Response>((resolve, reject) => {
      const url = new URL(String(input))
      if (url.protocol !== 'http:' && url.protocol !== 'https:') return reject(new OutboundError('refused', `${url.protocol} URLs are not fetched`))
      const literal = url.hostname.replace(/^\[|\]$/g, '')
      if (isIP(literal)) {
        const refusal = policy.refusal(literal)
        if (refusal) return reject(new OutboundError('refused', refusal))
      }
      let headers: Record<string, string> = {}
      new Headers(init?.headers).forEach((v, k) => (headers[k] = v))
      headers = withTraceContext(headers)
      const body = typeof init?.body === 'string' ? init.body : init?.body ? null : undefined
      if (body === null) return reject(new Error('only string bodies are sent by this fetch'))
      if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body))
      const request = (url.protocol === 'https:' ? https : http).request(url, { method: init?.method ?? 'GET', headers, agent: agents[url.protocol] })
      const fail = (e: Error) => reject(e instanceof OutboundError ? e : new OutboundError('network', `${url.origin}: ${(e as { code?: string }).code ?? e.message}`))
      const timer = setTimeout(() => request.destroy(new OutboundError('timeout', `${url.origin} did not answer within ${limits.timeoutMs} ms`)), limits.timeoutMs)
      const signal = init?.signal ?? undefined
      // The SDK transport shares one signal among all its in-flight requests.
      if (signal) setMaxListeners(0, signal)
      const onAbort = () => request.destroy(Object.assign(new Error('aborted'), { name: 'AbortError' }))
      signal?.addEventListener('abort', onAbort, { once: true })
      request.on('error', (e) => {
        clearTimeout(timer)
        signal?.removeEventListener('abort', onAbort)
        fail(e)
      })
      request.on('response', (res) => {
        const status = res.statusCode ?? 502
        if (/text\/event-stream/i.test(String(res.headers['content-type'] ?? ''))) {
          clearTimeout(timer)
          const streamHeaders = new Headers()
          for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) streamHeaders.set(k, Array.isArray(v) ? v.join(', ') : v)
          return resolve(new Response(Readable.toWeb(res) as ReadableStream, { status, headers: streamHeaders }))
        }
        const chunks: Buffer[] = []
        let size = 0
        res.on('data', (c: Buffer) => {
          size += c.length
          if (size > limits.maxBytes) return res.destroy(new OutboundError('too_large', `${url.origin} sent more than ${limits.maxBytes} bytes`))
          chunks.push(c)
        })
        res.on('error', (e) => {
          clearTimeout(timer)
          fail(e)
        })
        res.on('end', () => {
          clearTimeout(timer)
          signal?.removeEventListener('abort', onAbort)
          resolve(new BufferedResponse(status, res.statusMessage ?? '', new ReadOnlyHeaders(res.headers), Buffer.concat(chunks)) as unknown as Response)
        })
      })
      request.end(body)
    })
}

/**
 * A buffered answer with the parts of `Response` the SDK's client transport reads (status, headers,
 * text, json; no body stream). undici's Response builds a web ReadableStream per body, which cost
 * more than the rest of the forwarded call's HTTP work on the gateway's hot path.
 */
class BufferedResponse {
  readonly ok: boolean
  readonly body = null
  readonly bodyUsed = false
  readonly redirected = false
  readonly type = 'basic'
  constructor(
    readonly status: number,
    readonly statusText: string,
    readonly headers: ReadOnlyHeaders,
    private readonly bytes: Buffer,
  ) {
    this.ok = status >= 200 && status < 300
  }
  async text(): Promise<string> {
    return this.bytes.toString('utf8')
  }
  async json(): Promise<unknown> {
    return JSON.parse(this.bytes.toString('utf8'))
  }
  async arrayBuffer(): Promise<ArrayBuffer> {
    return new Uint8Array(this.bytes).buffer
  }
}

/** Node's parsed header object behind the read side of `Headers` (names are already lower case). */
class ReadOnlyHeaders {
  constructor(private readonly raw: http.IncomingHttpHeaders) {}
  get(name: string): string | null {
    const value = this.raw[name.toLowerCase()]
    return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value
  }
  has(name: string): boolean {
    return this.raw[name.toLowerCase()] !== undefined
  }
  forEach(callback: (value: string, name: string) => void): void {
    for (const name of Object.keys(this.raw)) callback(this.get(name)!, name)
  }
}

let instance: FetchLike | null = null
export function mcpSessionFetch(timeoutMs: number): FetchLike {
  instance ??= createNodeFetch(parseAddressPolicy(process.env.TOOLROOM_OUTBOUND_ALLOW ?? 'loopback,private'), {
    timeoutMs,
    maxBytes: Number(process.env.TOOLROOM_GATEWAY_MAX_RESPONSE_BYTES ?? 4 * 1024 * 1024),
  })
  return instance
}
