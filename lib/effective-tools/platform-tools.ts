// Toolroom's own `toolroom.*` tools, offered to every agent (the first tier: docs/design/effective-tools.md#tiers): progressive discovery
// of what the agent may call, and the status of calls waiting for approval.
import { MAX_RESULTS, QUERY_CHARS } from '@/lib/tool-search/rank-tools'
import { annotationsForLevel } from './derive-side-effects'
import type { CatalogTool } from './types'

const readOnly = annotationsForLevel('read_only', true)
const source = (name: string) => ({ kind: 'Platform' as const, name, namespace: null })
const stats = { totalCalls7d: 0, failureRate7d: null }

function platformTool(name: string, description: string, inputSchema: object, overrides: Partial<CatalogTool> = {}): CatalogTool {
  return {
    name,
    namespace: null,
    description,
    inputSchema,
    type: 'function',
    level: 'read_only',
    levelSource: 'declared',
    annotations: readOnly,
    source: source(name),
    stats,
    // Discovery and status lookups never need a human; what call_tool calls brings its own policy.
    requiresApproval: false,
    ...overrides,
  }
}

export const PLATFORM_TOOLS: readonly CatalogTool[] = [
  platformTool('toolroom.list_servers', 'List the MCP tool servers and connectors this agent can reach.', {
    type: 'object',
    properties: {},
    additionalProperties: false,
  }),
  platformTool(
    'toolroom.list_tools',
    'List the tools this agent may call, optionally only those of one server or namespace. With a query (a task in words, e.g. "refund an order"), the best matches first.',
    {
      type: 'object',
      properties: {
        server: { type: 'string' },
        namespace: { type: 'string' },
        query: { type: 'string', maxLength: QUERY_CHARS, description: 'What the tool should do, in words; ranks the tools, best first.' },
        limit: { type: 'integer', minimum: 1, maximum: MAX_RESULTS, description: 'How many ranked tools a query returns (default 10).' },
      },
      additionalProperties: false,
    },
  ),
  platformTool('toolroom.inspect_tool', 'Show the input schema, side-effect level and limits of one tool.', {
    type: 'object',
    required: ['name'],
    properties: { name: { type: 'string' } },
    additionalProperties: false,
  }),
  platformTool(
    'toolroom.call_tool',
    "Call a tool by name. The called tool's own rules (safety, limits, approval) apply to the call.",
    {
      type: 'object',
      required: ['name'],
      properties: { name: { type: 'string' }, arguments: { type: 'object' }, idempotencyKey: { type: 'string' } },
      additionalProperties: false,
    },
    // The wrapper has no side effects of its own, but it is not read-only: what it calls may write.
    { level: 'external_write', annotations: annotationsForLevel('external_write', false), requiresApproval: false },
  ),
  platformTool('toolroom.approval_status', 'Get the status, and once decided the result, of a call that is waiting for approval.', {
    type: 'object',
    required: ['callId'],
    properties: { callId: { type: 'string' } },
    additionalProperties: false,
  }),
]
