// Toolroom's own `toolroom.*` tools, carried out by the gateway itself (toolroom.call_tool is
// handled by the pipeline, which runs the named tool's own pipeline).
import 'server-only'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { openApprovedAnswer } from '@/lib/approvals/execute-approved-call'
import { prisma } from '@/lib/db'
import type { EffectiveTool } from '@/lib/effective-tools/types'
import { type AgentTools, runsInGateway } from './agent-tools'
import { ToolFailure } from './tool-errors'
import { toolSearchIndex } from './tool-search-index'
import { isUuid } from '@/lib/refs/uuid'

export function structured(value: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(value) }], structuredContent: value }
}

function summary(tool: EffectiveTool) {
  return {
    name: tool.name,
    description: tool.description,
    provenance: tool.provenance,
    level: tool.sideEffects.level,
    requiresApproval: tool.requiresApproval,
    readOnly: tool.annotations.readOnly,
  }
}

export async function runPlatformTool(name: string, args: Record<string, unknown>, tools: AgentTools): Promise<CallToolResult> {
  const enabled = [...tools.enabled.values()]
  switch (name) {
    case 'toolroom.list_servers': {
      const servers = new Map<string, { provenance: string; kind: string; name: string; namespace: string | null; tools: number }>()
      for (const t of enabled) {
        if (t.tier !== 'mcp' && t.tier !== 'connector') continue
        const entry = servers.get(t.provenance) ?? {
          provenance: t.provenance,
          kind: t.source.kind,
          name: t.provenance.slice(t.provenance.indexOf(':') + 1),
          namespace: t.source.namespace,
          tools: 0,
        }
        entry.tools++
        servers.set(t.provenance, entry)
      }
      return structured({ servers: [...servers.values()] })
    }
    case 'toolroom.list_tools': {
      const server = args.server as string | undefined
      const namespace = args.namespace as string | undefined
      const query = args.query as string | undefined
      const chosen = (t: EffectiveTool) =>
        runsInGateway(t) &&
        (!server || t.provenance === `mcp:${server}` || t.provenance === `connector:${server}`) &&
        (!namespace || t.toolNamespace === namespace)
      if (!query?.trim()) return structured({ tools: enabled.filter(chosen).map(summary) })
      // A query ranks the agent's own tools, best first (docs/design/effective-tools.md#tool-search).
      const matches = toolSearchIndex(tools).search(query, {
        limit: args.limit as number | undefined,
        only: (name) => {
          const t = tools.enabled.get(name)
          return t !== undefined && chosen(t)
        },
      })
      return structured({ tools: matches.map((m) => ({ ...summary(tools.enabled.get(m.name)!), score: m.score })) })
    }
    case 'toolroom.inspect_tool': {
      const tool = tools.enabled.get(String(args.name))
      if (!tool) throw new ToolFailure(`no tool "${String(args.name)}" is available to this agent`, 'unknown_tool', {}, -32602)
      return structured({
        ...summary(tool),
        inputSchema: tool.inputSchema,
        ...(tool.outputSchema ? { outputSchema: tool.outputSchema } : {}),
        annotations: tool.annotations,
        sideEffects: tool.sideEffects,
        rateLimit: tool.rateLimit,
      })
    }
    case 'toolroom.approval_status': {
      const callId = String(args.callId)
      if (!isUuid(callId)) throw new ToolFailure('callId must be the id of a call', 'bad_call_id', {}, -32602)
      const [row, approval] = await Promise.all([
        prisma.toolCall.findFirst({
          where: { id: callId, agentId: tools.agent.id },
          select: { id: true, toolId: true, outcome: true, startedAt: true, finishedAt: true, errorMessage: true },
        }),
        prisma.approvalRequest.findFirst({ where: { callId, agentId: tools.agent.id } }),
      ])
      if (!row) throw new ToolFailure(`this agent made no call ${callId}`, 'unknown_call', {}, -32602)
      // Once the approved call ran, its answer (kept sealed for this agent) comes with the status.
      const answer =
        approval && (approval.execution === 'succeeded' || approval.execution === 'failed')
          ? (openApprovedAnswer(approval) as Record<string, unknown> | undefined)
          : undefined
      return structured({
        callId: row.id,
        tool: row.toolId,
        status: approval?.status ?? row.outcome,
        outcome: row.outcome,
        requestedAt: row.startedAt.toISOString(),
        ...(approval
          ? {
              expiresAt: approval.expiresAt.toISOString(),
              decision: approval.decidedAt
                ? {
                    by: approval.decidedByName,
                    at: approval.decidedAt.toISOString(),
                    comment: approval.comment,
                    // Until then the approver may still undo it.
                    effectiveAt: approval.effectiveAt?.toISOString() ?? null,
                  }
                : null,
              execution: approval.execution,
            }
          : {}),
        ...(answer && 'result' in answer ? { result: answer.result } : {}),
        ...(answer && 'error' in answer ? { error: answer.error } : {}),
        ...(row.errorMessage ? { message: row.errorMessage } : {}),
      })
    }
  }
  throw new ToolFailure(`${name} is not a platform tool this gateway knows`, 'unknown_tool', {}, -32602)
}
