// One SDK Server per process serves every HTTP request: this Transport hands it each JSON-RPC request
// with the caller's auth info (the SDK's own MessageExtraInfo.authInfo) under an id unique in the
// process, and routes the Server's answer back to the request that asked. Creating a Server and a
// streamable-HTTP transport per request cost more CPU than the rest of a call (see BENCHMARKS.md);
// the protocol handling (method dispatch, request and result schemas, error objects) stays the SDK's.
//
// Agents share that Server, so nothing one agent sends may reach another's request: client
// notifications never reach the Server (its ids are this process's, which a client could guess), and
// a `notifications/cancelled` aborts only in-flight requests of the same credential that carry the id
// the sender gave them. Every pending entry ends with its request: answered, or dropped when the
// caller went away.
import 'server-only'
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js'
import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js'
import { isJSONRPCRequest, type JSONRPCMessage, type MessageExtraInfo } from '@modelcontextprotocol/sdk/types.js'

type Answer = Record<string, unknown>

interface Pending {
  resolve: (answer: Answer) => void
  /** Who sent the request (a credential id): only they may cancel it. */
  owner: string
  /** The id the caller gave the request. */
  callerId: string | number
  cancel: AbortController
  /** Where notifications about this request go (progress), when the caller takes them. */
  notify?: (notification: Answer) => void
}

/** What a request handler finds in `extra.authInfo.extra`: the caller's own, plus the request's cancellation. */
export interface RequestScope {
  /** Aborts when the caller cancels the request (`notifications/cancelled`) or the transport closes. */
  cancelled: AbortSignal
}

// The SDK's McpError puts "MCP error <code>: " in front of its message; clients add their own.
const SDK_PREFIX = /^MCP error -?\d+: /

export class MultiplexTransport implements Transport {
  onmessage?: (message: JSONRPCMessage, extra?: MessageExtraInfo) => void
  onclose?: () => void
  onerror?: (error: Error) => void
  private pending = new Map<number, Pending>()
  private nextId = 0

  async start(): Promise<void> {}

  async close(): Promise<void> {
    // A request's `cancelled` also ends with the transport (as the Server's own signal for it does),
    // so its handler needs no second signal to hear of a shutdown.
    for (const [id, p] of this.pending) {
      p.cancel.abort(new Error('the gateway is shutting down'))
      p.resolve({ jsonrpc: '2.0', id, error: { code: -32603, message: 'the gateway is shutting down' } })
    }
    this.pending.clear()
    this.onclose?.()
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const m = message as Answer
    // A notification about a request in flight (progress) goes to that request's caller, if it takes them.
    if (!('id' in m) && typeof m.method === 'string') {
      const related = typeof options?.relatedRequestId === 'number' ? this.pending.get(options.relatedRequestId) : undefined
      related?.notify?.(m)
      return
    }
    // Otherwise only answers to our requests matter: this gateway never asks the client anything.
    if (typeof m.id !== 'number' || !('result' in m || 'error' in m)) return
    const p = this.pending.get(m.id)
    if (!p) return
    this.pending.delete(m.id)
    const error = m.error as { code: number; message: string } | undefined
    p.resolve(error && typeof error.message === 'string' ? { ...m, error: { ...error, message: error.message.replace(SDK_PREFIX, '') } } : m)
  }

  /** In-flight requests (for tests and health checks). */
  get inFlight(): number {
    return this.pending.size
  }

  /**
   * Sends one request to the Server; resolves with its answer under the caller's own id. `gone`
   * aborts when the caller can no longer take the answer: the entry is dropped then (the handler
   * still finishes: a disconnection is not a cancellation). `notify` takes the notifications the
   * handler sends about the request (progress).
   */
  request(
    message: { id: string | number; method: string; params?: unknown },
    authInfo: AuthInfo,
    owner: string,
    gone?: AbortSignal,
    notify?: (notification: Answer) => void,
  ): Promise<Answer> {
    const id = ++this.nextId
    const outgoing = { jsonrpc: '2.0', id, method: message.method, ...(message.params !== undefined ? { params: message.params } : {}) }
    // The Server only answers what it takes for a request; anything else would wait forever.
    if (!isJSONRPCRequest(outgoing)) return Promise.resolve({ jsonrpc: '2.0', id: message.id, error: { code: -32600, message: 'Invalid Request' } })
    return new Promise((resolve) => {
      const cancel = new AbortController()
      const scope: RequestScope = { cancelled: cancel.signal }
      this.pending.set(id, { resolve: (answer) => resolve({ ...answer, id: message.id }), owner, callerId: message.id, cancel, notify })
      if (gone) {
        const drop = () => {
          if (this.pending.delete(id)) resolve({ jsonrpc: '2.0', id: message.id, error: { code: -32603, message: 'the caller went away' } })
        }
        if (gone.aborted) drop()
        else gone.addEventListener('abort', drop, { once: true })
      }
      this.onmessage!(outgoing as JSONRPCMessage, { authInfo: { ...authInfo, extra: { ...authInfo.extra, ...scope } } })
    })
  }

  /** A client's `notifications/cancelled`: aborts the sender's own in-flight requests with that id, nobody else's. */
  cancel(owner: string, callerId: string | number, reason?: string): number {
    let n = 0
    for (const p of this.pending.values()) {
      if (p.owner !== owner || p.callerId !== callerId) continue
      p.cancel.abort(new Error(reason ? `cancelled by the client: ${reason.slice(0, 200)}` : 'cancelled by the client'))
      n++
    }
    return n
  }
}
