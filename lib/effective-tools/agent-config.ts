// An agent's runtime config.yaml: where its runtime connects. Every tool goes through Toolroom's
// gateway (approvals, rate limits, argument checks, the call log); an MCP server the agent references
// appears with its own endpoint only when an operator marked it for direct access.
import 'server-only'
import type { Actor } from '@/lib/auth/access-rules'
import { prisma } from '@/lib/db'
import { AppError } from '@/lib/errors/app-error'
import { parseRef, qualifyRef } from '@/lib/refs/resource-ref'
import type { AgentSpec } from '@/lib/manifests/specs/fleet'
import { agentSideEndpoint } from '@/lib/deployment/render-language-tool'
import type { LanguageToolSpec } from '@/lib/manifests/specs/language-tool'
import { type ConfigServer, GATEWAY_ENTRY, renderConfigYaml } from './render-config-yaml'

export interface ConfigAgent {
  id: string
  namespace: string
  spec: unknown
}

/** The agent's config.yaml, for `caller` (an agent credential reads only its own agent's). */
export async function agentConfigYaml(agent: ConfigAgent, caller: Actor, publicOrigin: string): Promise<string> {
  if (caller.kind === 'agent' && caller.agent?.agentId !== agent.id)
    throw new AppError('FORBIDDEN', "an agent credential reads only its own agent's config.yaml")
  return renderConfigYaml(new URL('/mcp', publicOrigin).href, await directServersOf(agent))
}

/** The agent's referenced servers marked `spec.directAccess: true`, in reference order. */
async function directServersOf(agent: ConfigAgent): Promise<ConfigServer[]> {
  const refs = [...new Set(((agent.spec as AgentSpec).languageTools ?? []).map((r) => qualifyRef(r, agent.namespace)))]
  if (!refs.length) return []
  const rows = await prisma.languageTool.findMany({
    where: { OR: refs.map((r) => parseRef(r, agent.namespace)) },
    select: { name: true, namespace: true, spec: true },
  })
  const byRef = new Map(rows.map((s) => [`${s.namespace}/${s.name}`, s]))
  const taken = new Set([GATEWAY_ENTRY])
  const servers: ConfigServer[] = []
  for (const ref of refs) {
    const row = byRef.get(ref)
    const spec = row?.spec as LanguageToolSpec | undefined
    if (!row || spec?.directAccess !== true) continue
    // Never in place of the gateway's entry, nor of another server's.
    const name = taken.has(row.name) ? ref : row.name
    taken.add(name)
    // A sidecar runs in the agent's own pod: the agent reaches it there, as rendered (lib/deployment/).
    servers.push({ name, endpoint: agentSideEndpoint(row.name, row.namespace, spec) })
  }
  return servers
}
