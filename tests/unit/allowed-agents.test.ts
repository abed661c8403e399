import { describe, expect, it } from 'vitest'
import { agentAllowed, ALLOWED_AGENT_PATTERN, allowedAgentMatches } from '@/lib/effective-tools/allowed-agents'
import { toolSpec } from '@/lib/manifests/specs/tool'

const agent = (namespace: string, name: string) => ({ namespace, name })

describe('safety.allowedAgents', () => {
  it("reads a bare name in the tool's namespace only", () => {
    expect(allowedAgentMatches('triage', 'support', agent('support', 'triage'))).toBe(true)
    expect(allowedAgentMatches('triage', 'support', agent('evil', 'triage'))).toBe(false)
    expect(allowedAgentMatches('triage', null, agent('support', 'triage'))).toBe(false)
  })

  it('reads namespace/name and namespace/* in the named namespace', () => {
    expect(allowedAgentMatches('ops/triage', 'support', agent('ops', 'triage'))).toBe(true)
    expect(allowedAgentMatches('ops/triage', 'support', agent('support', 'triage'))).toBe(false)
    expect(allowedAgentMatches('ops/*', 'support', agent('ops', 'anything'))).toBe(true)
    expect(allowedAgentMatches('ops/*', 'ops', agent('opsx', 'anything'))).toBe(false)
  })

  it('restricts nothing when empty or missing', () => {
    expect(agentAllowed(undefined, 'a', agent('b', 'c'))).toBe(true)
    expect(agentAllowed([], 'a', agent('b', 'c'))).toBe(true)
    expect(agentAllowed(['x'], 'a', agent('b', 'x'))).toBe(false)
  })

  it('accepts the three forms in a Tool and refuses others', () => {
    for (const ok of ['triage', 'ops/triage', 'ops/*']) expect(ALLOWED_AGENT_PATTERN.test(ok)).toBe(true)
    for (const bad of ['*', '*/triage', 'ops/', '/triage', 'ops/tri*', 'Ops/x', 'a/b/c']) expect(ALLOWED_AGENT_PATTERN.test(bad)).toBe(false)
    const spec = (allowedAgents: string[]) =>
      toolSpec.safeParse({ type: 'function', description: 'd', inputSchema: { type: 'object' }, safety: { allowedAgents } })
    expect(spec(['ops/*', 'triage']).success).toBe(true)
    const refused = spec(['*'])
    expect(refused.success).toBe(false)
    expect(refused.error!.issues[0].message).toContain('namespace/*')
  })
})
