// Errors of an MCP introspection: the public McpIntrospectionError (which step failed, and why), the
// internal AttemptError of one transport attempt, and the one-line description of any thrown value.
import 'server-only'
import { SseError } from '@modelcontextprotocol/sdk/client/sse.js'
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { excerptOf } from '@/lib/json/unknown-values'

export type McpIntrospectionStep = 'endpoint' | 'readiness' | 'initialize' | 'tools/list' | 'aborted'

/** Why an introspection failed; `message` names the step and the reason. */
export class McpIntrospectionError extends Error {
  constructor(
    readonly step: McpIntrospectionStep,
    message: string,
  ) {
    super(message)
    this.name = 'McpIntrospectionError'
  }
}

/** A failed attempt: at which step, and whether the server answered that step with a JSON-RPC error. */
export class AttemptError extends Error {
  constructor(
    readonly step: 'initialize' | 'tools/list',
    message: string,
    readonly answered = false,
  ) {
    super(message)
  }
}

/** One line saying what went wrong, never a stack; long server bodies are cut short. */
export function describeError(e: unknown): string {
  if ((e instanceof StreamableHTTPError || e instanceof SseError) && e.code !== undefined && e.code > 0) {
    return excerptOf(`HTTP ${e.code}: ${e.message}`, 300)
  }
  if (e instanceof Error) {
    const cause = (e as { cause?: unknown }).cause
    const causeText = cause instanceof Error && !e.message.includes(cause.message) ? ` (${cause.message})` : ''
    return excerptOf(`${e.message}${causeText}`, 300)
  }
  return excerptOf(String(e), 300)
}

export function throwIfAborted(signal: AbortSignal | undefined) {
  if (signal?.aborted) {
    const reason = signal.reason instanceof Error ? signal.reason.message : signal.reason !== undefined ? String(signal.reason) : 'aborted'
    throw new McpIntrospectionError('aborted', `introspection aborted: ${reason}`)
  }
}
