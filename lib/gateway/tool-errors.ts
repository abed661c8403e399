// Failures the pipeline turns into JSON-RPC error objects. Codes are JSON-RPC's and MCP's; the two
// refusals JSON-RPC has no code for use the server-defined range (-32000 to -32099), documented in
// the README: -32029 rate limited, -32009 still in progress (a concurrent call with the same
// idempotency key has not finished).
export const RPC = {
  PARSE_ERROR: -32700,
  INVALID_REQUEST: -32600,
  METHOD_NOT_FOUND: -32601,
  INVALID_PARAMS: -32602,
  INTERNAL_ERROR: -32603,
  RATE_LIMITED: -32029,
  IN_PROGRESS: -32009,
} as const

/** An executor's failure that a retry will not cure (an upstream refusal, a bad answer, a command that failed). */
export class ToolFailure extends Error {
  constructor(
    message: string,
    readonly errorCode: string,
    readonly detail: Record<string, unknown> = {},
    readonly rpcCode: number = RPC.INTERNAL_ERROR,
    /** What the upstream answered, raw: the pipeline redacts and bounds it before the call record keeps it. */
    readonly upstreamReply?: string,
  ) {
    super(message)
    this.name = 'ToolFailure'
  }
}
