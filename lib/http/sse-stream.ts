// A server-sent event stream: JSON-RPC messages as MCP's streamable HTTP frames them (`event:
// message`, one JSON message per `data:` line), or named events with an id a client resumes from
// (watches). Writes after the end, or after the reader went away, are dropped; `closed` fires once
// either happens.

export const SSE_HEADERS: Record<string, string> = {
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache, no-transform',
  // Proxies such as nginx would otherwise hold events back (MCP streamable HTTP, "Receiving Messages").
  'x-accel-buffering': 'no',
}

/** A named event's lines up to its data. */
const eventHead = (name: string, id: string | undefined) => `event: ${name}\n${id === undefined ? '' : `id: ${id}\n`}data: `

export class SseStream {
  readonly body: ReadableStream<Uint8Array>
  private controller!: ReadableStreamDefaultController<Uint8Array>
  private ended = false
  private readonly done = new AbortController()

  constructor() {
    this.body = new ReadableStream<Uint8Array>({
      start: (controller) => {
        this.controller = controller
      },
      cancel: () => this.finish(),
    })
  }

  /** Aborts when the stream ended: closed by us, or cancelled by its reader (the client left). */
  get closed(): AbortSignal {
    return this.done.signal
  }

  send(message: unknown): boolean {
    return this.write(`event: message\ndata: ${JSON.stringify(message)}\n\n`)
  }

  /** A named event; `id` is what an EventSource sends back as Last-Event-ID when it reconnects. */
  event(name: string, data: unknown, id?: string): boolean {
    return this.write(`${eventHead(name, id)}${JSON.stringify(data)}\n\n`)
  }

  /**
   * A named event whose data is JSON already serialized in parts (text, and bytes written as they are,
   * never copied): the parts must hold no line break, which JSON.stringify's text never does.
   */
  eventParts(name: string, parts: Array<string | Uint8Array>, id?: string): boolean {
    if (!this.write(eventHead(name, id))) return false
    for (const part of parts) if (!this.write(part)) return false
    return this.write('\n\n')
  }

  /** A comment line: keeps idle connections (and the proxies between) from timing out. */
  keepAlive(): boolean {
    return this.write(':\n\n')
  }

  close(): void {
    if (this.ended) return
    try {
      this.controller.close()
    } catch {
      // already errored or cancelled
    }
    this.finish()
  }

  private write(chunk: string | Uint8Array): boolean {
    if (this.ended) return false
    try {
      // Buffer.from: small text is cut from Node's shared pool. TextEncoder.encode gave each chunk an
      // ArrayBuffer of its own: a watch's keep-alive comments and notices, thousands a second at 5,000
      // watches, spent more CPU there (and in collecting them) than on anything else but the sets.
      this.controller.enqueue(typeof chunk === 'string' ? Buffer.from(chunk) : chunk)
      return true
    } catch {
      this.finish()
      return false
    }
  }

  private finish() {
    if (this.ended) return
    this.ended = true
    this.done.abort()
  }
}
