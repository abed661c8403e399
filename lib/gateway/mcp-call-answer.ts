// How the pipeline's answers reach an MCP client under the revision the gateway negotiates
// (2025-11-25). Arguments that break the tool's inputSchema are a tool execution error (SEP-1303): a
// result with `isError: true` whose text names each violation and whose `structuredContent` holds
// them, so the model can correct its call. Everything else the pipeline refuses stays a JSON-RPC
// error: an unknown tool, or one not in the agent's enabled set (or not run by this gateway), is
// -32602 with the reason in `data`. The REST endpoint maps the same answers to problem+json itself.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import type { CallAnswer } from './call-tool'
import type { Violation } from './validate-args'

export type McpCallAnswer = { result: CallToolResult } | { error: { code: number; message: string; data: Record<string, unknown> } }

export function toMcpAnswer(answer: CallAnswer): McpCallAnswer {
  if ('result' in answer) return { result: answer.result }
  const { data } = answer.error
  if (data.outcome === 'invalid_arguments' && Array.isArray(data.violations)) return { result: invalidArgumentsResult(data) }
  return { error: answer.error }
}

function invalidArgumentsResult(data: Record<string, unknown>): CallToolResult {
  const violations = data.violations as Violation[]
  const tool = typeof data.tool === 'string' ? data.tool : 'the tool'
  const lines = violations.map((v) => `- ${v.path}: ${v.message} (${v.rule})`)
  const text = `The arguments do not match the inputSchema of ${tool}; nothing ran. Correct these and call again:\n${lines.join('\n')}`
  return {
    isError: true,
    content: [{ type: 'text', text }],
    structuredContent: { error: 'invalid_arguments', tool, callId: data.callId, violations },
  }
}
