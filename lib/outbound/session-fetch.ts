// A fetch for the gateway's pooled MCP client sessions, on node:http keep-alive agents: per call it
// costs a fraction of undici's fetch (measured in BENCHMARKS.md), which matters on the gateway's hot
// path. The same SSRF checks as every other outbound request (./guard.ts), answers bounded in time and
// size, no redirects followed (a 3xx is handed to the SDK as it is). JSON answers are buffered; event
// streams are streamed.
import 'server-only'
import { setMaxListeners } from 'node:events'
import http from 'node:http'
import https from 'node:https'
import { Readable } from 'node:stream'
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js'
import type { AddressPolicy } from '@/lib/net/address-policy'
import { checkTarget, guardedLookup } from './guard'
import { answerLimit, OutboundError } from './outbound-error'
import { outboundHeaders } from './request-headers'

export function createSessionFetch(policy: AddressPolicy, limits: { timeoutMs: number; maxBytes: number; maxBytesSetting?: string }): FetchLike {
  const lookup = guardedLookup(policy)
  const agents = {
    'http:': new http.Agent({ keepAlive: true, maxSockets: 256, lookup } as http.AgentOptions),
    'https:': new https.Agent({ keepAlive: true, maxSockets: 256, lookup } as https.AgentOptions),
  }

  return (input, init) =>
    new Promise<Response>((resolve, reject) => {
      const url = new URL(String(input))
      try {
        checkTarget(url, policy)
      } catch (e) {
        return reject(e)
      }
      const headers = outboundHeaders(init?.headers)
      const body = typeof init?.body === 'string' ? init.body : init?.body ? null : undefined
      if (body === null) return reject(new Error('only string bodies are sent by this fetch'))
      if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body))
      const secure = url.protocol === 'https:'
      const request = (secure ? https : http).request(url, { method: init?.method ?? 'GET', headers, agent: secure ? agents['https:'] : agents['http:'] })
      const fail = (e: Error) =>
        reject(e instanceof OutboundError ? e : new OutboundError('network', `${url.origin}: ${(e as { code?: string }).code ?? e.message}`))
      const timer = setTimeout(
        () => request.destroy(new OutboundError('timeout', `${url.origin} did not answer within ${limits.timeoutMs} ms`)),
        limits.timeoutMs,
      )
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
          if (size > limits.maxBytes)
            return res.destroy(new OutboundError('too_large', `${url.origin} sent more than ${answerLimit(limits.maxBytes, limits.maxBytesSetting)}`))
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
