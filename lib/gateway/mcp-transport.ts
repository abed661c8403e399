// One SDK Server per process serves every HTTP request: this Transport hands it each JSON-RPC message
// with the caller's auth info (the SDK's own MessageExtraInfo.authInfo) under an id unique in the
// process, and routes the Server's answer back to the request that asked. Creating a Server and a
// streamable-HTTP transport per request cost more CPU than the rest of a call (see BENCHMARKS.md);
// the protocol handling (method dispatch, request and result schemas, error objects) stays the SDK's.
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js'
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import type { JSONRPCMessage, MessageExtraInfo } from '@modelcontextprotocol/sdk/types.js'

type Answer = Record<string, unknown>

export class MultiplexTransport implements Transport {
  onmessage?: (message: JSONRPCMessage, extra?: MessageExtraInfo) => void
  onclose?: () => void
  onerror?: (error: Error) => void
  private pending = new Map<number, (answer: Answer) => void>()
  private nextId = 0

  async start(): Promise<void> {}

  async close(): Promise<void> {
    for (const [id, resolve] of this.pending) resolve({ jsonrpc: '2.0', id, error: { code: -32603, message: 'the gateway is shutting down' } })
    this.pending.clear()
    this.onclose?.()
  }

  async send(message: JSONRPCMessage): Promise<void> {
    // Only answers to our requests matter: this gateway never asks the client anything.
    const m = message as Answer
    if (typeof m.id !== 'number' || !('result' in m || 'error' in m)) return
    const resolve = this.pending.get(m.id)
    if (!resolve) return
    this.pending.delete(m.id)
    resolve(m)
  }

  /** Sends one request to the Server; resolves with its answer under the caller's own id. */
  request(message: { id: string | number; method: string; params?: unknown }, authInfo: AuthInfo): Promise<Answer> {
    const id = ++this.nextId
    return new Promise((resolve) => {
      this.pending.set(id, (answer) => resolve({ ...answer, id: message.id }))
      this.onmessage!({ jsonrpc: '2.0', id, method: message.method, ...(message.params !== undefined ? { params: message.params } : {}) } as JSONRPCMessage, { authInfo })
    })
  }

  notify(message: { method: string; params?: unknown }, authInfo: AuthInfo): void {
    this.onmessage!({ jsonrpc: '2.0', method: message.method, ...(message.params !== undefined ? { params: message.params } : {}) } as JSONRPCMessage, { authInfo })
  }
}
