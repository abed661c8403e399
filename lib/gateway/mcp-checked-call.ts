// `tools/call` on the gateway's one SDK v1 Server without parsing each request three times more.
// Every request reaches that Server through answerLegacy, after checkMessage (mcp-messages.ts)
// parsed it with SDK v1's own JSONRPCRequestSchema and CallToolRequestSchema and refused it, naming
// each violation, if it broke them. SDK v1's Server then parses it again with CallToolRequestSchema
// (its tools/call wrapper) and its Protocol once more (setRequestHandler): the same schema on the same
// message, a measurable share of a call's CPU (BENCHMARKS.md, "Gateway: cost per call"). Here the
// handler is installed under the Protocol's own registration with a schema that only names the
// method, and the result is still checked as SDK v1's wrapper checks it: the same schema, the same
// error (-32602 "Invalid tools/call result: …"), so an answer the SDK would refuse is refused alike.
import 'server-only'
import type { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { Protocol, type RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js'
import {
  type CallToolRequest,
  CallToolResultSchema,
  ErrorCode,
  McpError,
  type ServerNotification,
  type ServerRequest,
} from '@modelcontextprotocol/sdk/types.js'
import { z } from 'zod/v4'

/** Names the method for the Protocol's dispatch; the request itself was parsed before it came in. */
const CHECKED_TOOLS_CALL = z.looseObject({ method: z.literal('tools/call') })

export type CheckedCallHandler = (request: CallToolRequest, extra: RequestHandlerExtra<ServerRequest, ServerNotification>) => Promise<Record<string, unknown>>

/** Installs `handler` for `tools/call` requests that checkMessage already took, keeping SDK v1's check of the result. */
export function handleCheckedToolCalls(server: Server, handler: CheckedCallHandler): void {
  const register = Protocol.prototype.setRequestHandler as (
    this: Server,
    schema: typeof CHECKED_TOOLS_CALL,
    handler: (request: z.infer<typeof CHECKED_TOOLS_CALL>, extra: RequestHandlerExtra<ServerRequest, ServerNotification>) => Promise<Record<string, unknown>>,
  ) => void
  register.call(server, CHECKED_TOOLS_CALL, async (request, extra) => {
    const result = await handler(request as unknown as CallToolRequest, extra)
    const checked = CallToolResultSchema.safeParse(result)
    if (!checked.success) throw new McpError(ErrorCode.InvalidParams, `Invalid tools/call result: ${checked.error.message}`)
    return checked.data
  })
}
