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

/** `data.errorCode` of a failure that is Toolroom's own defect, not the tool's: the one code a client or the fuzzer must never see. */
export const INTERNAL_FAILURE = 'internal'

/** Thrown by executors for failures a retry may cure. */
export class TransientError extends Error {
  constructor(
    message: string,
    readonly detail?: Record<string, unknown>,
    /** What the upstream answered, raw (see ToolFailure.upstreamReply). */
    readonly upstreamReply?: string,
  ) {
    super(message)
    this.name = 'TransientError'
  }
}

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

/**
 * What an execution's exception tells the caller. The tool's own failures (an upstream refusal, a
 * timeout, a command that failed) and Toolroom's own (an exception nobody expected) share JSON-RPC's
 * -32603, so `data.errorCode` tells them apart: `internal` is a defect of Toolroom's, said so in the
 * message too, never an upstream's answer (docs/design/gateway.md, "The pipeline").
 */
export function executionFailure(e: unknown, attempts: number): { errorCode: string; message: string; rpc: number; data: Record<string, unknown> } {
  if (e instanceof ToolFailure) return { errorCode: e.errorCode, message: e.message, rpc: e.rpcCode, data: e.detail }
  if (e instanceof TransientError) return { errorCode: 'transient', message: e.message, rpc: RPC.INTERNAL_ERROR, data: { ...e.detail, retried: attempts > 1 } }
  return {
    errorCode: INTERNAL_FAILURE,
    message: `Toolroom's own error while running the tool (not the tool's failure): ${describeThrown(e)}`,
    rpc: RPC.INTERNAL_ERROR,
    data: {},
  }
}

/** What was thrown, as text, whatever it is: an object whose toString throws or is not a function too. */
function describeThrown(e: unknown): string {
  if (e instanceof Error) return e.message
  const message = (e as { message?: unknown } | null | undefined)?.message
  if (typeof message === 'string') return message
  try {
    return String(e)
  } catch {
    return Object.prototype.toString.call(e)
  }
}
