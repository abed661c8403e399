// What the gateway's /mcp answers are made of, whichever revision produced them: a status, headers,
// and a body that is either text (JSON) or an event stream. The lean process (server.ts) and the
// Next.js route (mcp-handler.ts) both write these.
import 'server-only'
import { config } from '@/lib/config'
import { RPC } from './tool-errors'

export interface McpAnswer {
  status: number
  headers: Record<string, string>
  body: string | ReadableStream<Uint8Array>
}

export const JSON_HEADERS = { 'content-type': 'application/json' }

export const GATEWAY_SERVER_INFO = { name: 'toolroom-gateway', version: '1.0.0' }
export const GATEWAY_INSTRUCTIONS =
  'Toolroom gateway: the tools listed are the ones this agent may call. Calls that need approval answer with status "approval_required" and a callId; ask toolroom.approval_status for the decision.'

export function rpcError(status: number, code: number, message: string, extraHeaders: Record<string, string> = {}, data?: unknown): McpAnswer {
  return {
    status,
    headers: { ...JSON_HEADERS, ...extraHeaders },
    body: JSON.stringify({ jsonrpc: '2.0', error: { code, message, ...(data !== undefined ? { data } : {}) }, id: null }),
  }
}

export const maxMcpBodyBytes = () => config().TOOLROOM_GATEWAY_MAX_BODY_BYTES

export const tooLarge = () =>
  rpcError(413, RPC.INVALID_REQUEST, `the request body is larger than the limit of ${maxMcpBodyBytes()} bytes for /mcp (TOOLROOM_GATEWAY_MAX_BODY_BYTES)`, {
    connection: 'close',
  })
export const notAllowed = (method: string) =>
  rpcError(
    405,
    RPC.INVALID_REQUEST,
    `${method.slice(0, 20)} is not served here: send JSON-RPC with POST, or GET with Accept: text/event-stream for the 2025-11-25 stream of list changes (this gateway is stateless: no session to delete)`,
    {
      allow: 'GET, POST',
    },
  )
