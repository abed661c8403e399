// One HTTP exchange through an undici dispatcher, answered as a WHATWG Response whose body streams
// as it arrives. undici's fetch() costs the worker about 0.5 ms of CPU a request over this (its full
// fetch algorithm: request objects, header guards, body teeing); discovery makes seven requests per
// MCP server. No redirects are followed and no content codings are asked for (so none need decoding):
// the guarded fetch above handles redirects hop by hop.
import 'server-only'
import { STATUS_CODES } from 'node:http'
import type { Dispatcher } from 'undici'
import { FETCH_DEFAULT_HEADERS, outboundHeaders } from './request-headers'

export interface DispatchInit {
  method?: string
  headers?: HeadersInit
  body?: BodyInit | null
  signal?: AbortSignal
  /** Called once the exchange is over: its body received in full, or the exchange failed or was aborted. */
  onSettled?: () => void
}

const NULL_BODY_STATUSES = new Set([101, 204, 205, 304])

export async function dispatchResponse(dispatcher: Dispatcher, url: URL, init: DispatchInit): Promise<Response> {
  const method = (init.method ?? 'GET').toUpperCase()
  const headers = outboundHeaders(init.headers, FETCH_DEFAULT_HEADERS)
  let body: string | Uint8Array | null = null
  if (init.body != null) {
    if (typeof init.body === 'string') {
      body = init.body
      headers['content-type'] ??= 'text/plain;charset=UTF-8'
    } else if (init.body instanceof Uint8Array) body = init.body
    else {
      const request = new Request(url, { method, body: init.body, duplex: 'half' } as RequestInit)
      body = new Uint8Array(await request.arrayBuffer())
      const type = request.headers.get('content-type')
      if (type) headers['content-type'] ??= type
    }
  }
  const signal = init.signal
  signal?.throwIfAborted()

  return new Promise<Response>((resolve, reject) => {
    let stream: ReadableStreamDefaultController<Uint8Array> | null = null
    let dispatch: { abort(reason: Error): void; pause(): void; resume(): void } | null = null
    let settled = false
    const onAbort = () => dispatch?.abort(signal!.reason)
    signal?.addEventListener('abort', onAbort, { once: true })
    const done = () => {
      signal?.removeEventListener('abort', onAbort)
      init.onSettled?.()
    }

    dispatcher.dispatch(
      { origin: url.origin, path: `${url.pathname}${url.search}`, method, headers, body },
      {
        onRequestStart(controller) {
          dispatch = controller
          if (signal?.aborted) controller.abort(signal.reason)
        },
        onResponseStart(controller, statusCode, responseHeaders, statusMessage) {
          if (statusCode < 200) return // informational: the answer comes after
          const answer = new Headers()
          for (const [name, value] of Object.entries(responseHeaders)) {
            if (Array.isArray(value)) for (const v of value) answer.append(name, v)
            else if (value !== undefined) answer.set(name, value)
          }
          const empty = method === 'HEAD' || NULL_BODY_STATUSES.has(statusCode)
          const readable = empty
            ? null
            : new ReadableStream<Uint8Array>({
                start: (c) => void (stream = c),
                // enqueue() may call pull() from inside onResponseData; undici must not be resumed
                // re-entrantly from its own data callback, so the resume waits for a microtask.
                pull: () => {
                  if (controller.paused) queueMicrotask(() => controller.resume())
                },
                cancel: (reason) => controller.abort(reason instanceof Error ? reason : new Error('response body cancelled')),
              })
          try {
            settled = true
            resolve(new Response(readable, { status: statusCode, statusText: statusMessage ?? STATUS_CODES[statusCode] ?? '', headers: answer }))
          } catch (e) {
            controller.abort(e as Error) // a status a Response cannot carry (600 and up)
            reject(e)
          }
        },
        onResponseData(controller, chunk) {
          // After a pause, undici's parser resumes with an empty chunk: nothing to pass on, no reason to pause again.
          if (!stream || chunk.length === 0) return
          try {
            // A copy: the chunk is a view of the socket's buffer, and a body reader may transfer it.
            stream.enqueue(new Uint8Array(chunk))
          } catch {
            return // the body was cancelled: the exchange is being aborted
          }
          if ((stream.desiredSize ?? 1) <= 0) controller.pause()
        },
        onResponseEnd() {
          done()
          // undici hands the connection back to its pool on a later turn of the event loop (a
          // setImmediate it schedules after this callback, client-h1.js onMessageComplete). A body
          // ended before then lets its reader send its next request first, which the pool puts on a new
          // connection: two connects and closes per discovery instead of one. The end waits that turn.
          queueMicrotask(() =>
            setImmediate(() => {
              try {
                stream?.close()
              } catch {
                // cancelled meanwhile
              }
            }),
          )
        },
        onResponseError(_controller, error) {
          done()
          if (!settled) reject(error)
          else stream?.error(error)
        },
      },
    )
  })
}
