// Checks each JSON-RPC message an agent sends against the schemas of the MCP revision it speaks, before
// anything runs, so every request gets the right error object: -32600 for what is not a JSON-RPC 2.0
// request, -32602 (naming each violation, also in `data.issues`) for params that break the method's
// schema. 2025-11-25 messages are checked with SDK v1's schemas (the revision its Server negotiates),
// 2026-07-28 ones with SDK v2's (@modelcontextprotocol/core); the revision's own envelope rules
// (`_meta` protocol fields, mirrored headers) are SDK v2's validation ladder's (mcp-modern.ts).
import 'server-only'
import {
  CallToolRequestSchema as ModernCallToolRequest,
  ClientNotificationSchema as ModernClientNotification,
  DiscoverRequestSchema,
  JSONRPCErrorResponseSchema as ModernErrorResponse,
  JSONRPCNotificationSchema as ModernNotification,
  JSONRPCRequestSchema as ModernRequest,
  JSONRPCResultResponseSchema as ModernResultResponse,
  ListToolsRequestSchema as ModernListToolsRequest,
  RequestIdSchema as ModernRequestId,
  SubscriptionsListenRequestSchema,
} from '@modelcontextprotocol/core'
import {
  CallToolRequestSchema,
  ClientNotificationSchema,
  InitializeRequestSchema,
  JSONRPCErrorResponseSchema,
  JSONRPCNotificationSchema,
  JSONRPCRequestSchema,
  JSONRPCResultResponseSchema,
  ListToolsRequestSchema,
  PingRequestSchema,
  RequestIdSchema,
} from '@modelcontextprotocol/sdk/types.js'
import type { z } from 'zod/v4'
import { RPC } from './tool-errors'

type Schema = { safeParse(value: unknown): { success: true; data: unknown } | { success: false; error: z.ZodError } }

interface Revision {
  request: Schema
  notification: Schema
  clientNotification: Schema & { options: ReadonlyArray<{ shape: { method: { value: string } } }> }
  result: Schema
  error: Schema
  requestId: Schema
  /** The requests the gateway answers, each with its method's own schema. */
  handled: Record<string, Schema>
}

const REVISIONS: Record<'legacy' | 'modern', Revision> = {
  legacy: {
    request: JSONRPCRequestSchema,
    notification: JSONRPCNotificationSchema,
    clientNotification: ClientNotificationSchema as unknown as Revision['clientNotification'],
    result: JSONRPCResultResponseSchema,
    error: JSONRPCErrorResponseSchema,
    requestId: RequestIdSchema,
    handled: { initialize: InitializeRequestSchema, ping: PingRequestSchema, 'tools/list': ListToolsRequestSchema, 'tools/call': CallToolRequestSchema },
  },
  modern: {
    request: ModernRequest,
    notification: ModernNotification,
    clientNotification: ModernClientNotification as unknown as Revision['clientNotification'],
    result: ModernResultResponse,
    error: ModernErrorResponse,
    requestId: ModernRequestId,
    handled: {
      'server/discover': DiscoverRequestSchema,
      'subscriptions/listen': SubscriptionsListenRequestSchema,
      'tools/list': ModernListToolsRequest,
      'tools/call': ModernCallToolRequest,
    },
  },
}

export type Era = keyof typeof REVISIONS

export type JsonRpcRequest = { id: string | number; method: string; params?: Record<string, unknown> }

export type Checked =
  | { kind: 'request'; message: JsonRpcRequest }
  | { kind: 'notification'; message: { method: string; params?: Record<string, unknown> } }
  | { kind: 'response' }
  | { kind: 'refused'; answer: Record<string, unknown>; status: number }

const MAX_ISSUES = 10

/** The schema's complaints, readable: "params._meta.progressToken: Invalid input; …" */
function issuesOf(error: z.ZodError): { text: string; issues: Array<{ path: string; message: string }> } {
  const issues = error.issues.slice(0, MAX_ISSUES).map((i) => ({ path: i.path.map(String).join('.') || '(message)', message: i.message }))
  return { text: issues.map((i) => `${i.path}: ${i.message}`).join('; '), issues }
}

function refused(revision: Revision, id: unknown, code: number, message: string, data?: unknown, status = code === RPC.INVALID_REQUEST ? 400 : 200): Checked {
  return {
    kind: 'refused',
    status,
    answer: { jsonrpc: '2.0', id: revision.requestId.safeParse(id).success ? id : null, error: { code, message, ...(data !== undefined ? { data } : {}) } },
  }
}

/**
 * Checks one message against the revision's schemas (JSON-RPC 2.0 as MCP restricts it, then the
 * method's own request or notification schema): a request that is none is answered -32600, one whose
 * params break its method's schema -32602, naming each violation.
 */
export function checkMessage(era: Era, m: unknown): Checked {
  const revision = REVISIONS[era]
  if (typeof m !== 'object' || m === null || Array.isArray(m))
    return refused(revision, null, RPC.INVALID_REQUEST, 'Invalid Request: a JSON-RPC message is an object')
  const msg = m as Record<string, unknown>
  if (typeof msg.method === 'string' && 'id' in msg) {
    const envelope = revision.request.safeParse(msg)
    if (!envelope.success) {
      const { text, issues } = issuesOf(envelope.error)
      // JSON-RPC allows structured params; MCP wants an object whose fields follow the schema: that is the params' fault.
      const ofParams = typeof msg.params === 'object' && msg.params !== null && envelope.error.issues.every((i) => i.path[0] === 'params')
      return ofParams
        ? refused(revision, msg.id, RPC.INVALID_PARAMS, `Invalid params: ${text}`, { issues })
        : refused(revision, msg.id, RPC.INVALID_REQUEST, `Invalid Request: ${text}`, { issues })
    }
    const schema = revision.handled[msg.method]
    if (schema) {
      const parsed = schema.safeParse(msg)
      if (!parsed.success) {
        const { text, issues } = issuesOf(parsed.error)
        return refused(revision, msg.id, RPC.INVALID_PARAMS, `Invalid params for ${msg.method}: ${text}`, { issues })
      }
    }
    const request = envelope.data as JsonRpcRequest
    if (msg.method === 'tools/call') {
      const params = msg.params as { name: string; task?: unknown }
      if (params.name.length === 0)
        return refused(revision, msg.id, RPC.INVALID_PARAMS, 'Invalid params for tools/call: params.name must name the tool to call')
      // This gateway declares no task support, so task augmentation is ignored and the call runs as usual.
      if (params.task !== undefined) {
        const { task: _ignored, ...rest } = params
        return { kind: 'request', message: { id: request.id, method: request.method, params: rest } }
      }
    }
    return { kind: 'request', message: request }
  }
  if (typeof msg.method === 'string') {
    const envelope = revision.notification.safeParse(msg)
    const known = envelope.success && revision.clientNotification.options.some((o) => o.shape.method.value === msg.method)
    const parsed = known ? revision.clientNotification.safeParse(msg) : envelope
    if (!parsed.success) {
      const { text, issues } = issuesOf(parsed.error)
      return refused(revision, null, RPC.INVALID_REQUEST, `Invalid notification: ${text}`, { issues }, 400)
    }
    return { kind: 'notification', message: parsed.data as { method: string; params?: Record<string, unknown> } }
  }
  if ('result' in msg || 'error' in msg) {
    if (revision.result.safeParse(msg).success || revision.error.safeParse(msg).success) return { kind: 'response' }
    return refused(revision, null, RPC.INVALID_REQUEST, 'Invalid Request: not a JSON-RPC 2.0 response')
  }
  return refused(
    revision,
    msg.id,
    RPC.INVALID_REQUEST,
    'Invalid Request: not a JSON-RPC 2.0 message ("jsonrpc": "2.0", a "method" string, an "id" string or integer, "params" an object)',
  )
}
