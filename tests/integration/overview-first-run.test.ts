// The dashboard's "Getting started" checklist reads its steps from what is there (lib/resources/get-overview.ts,
// firstRun): each step turns done when the registry or the call log says so, in the order a newcomer goes.
import { beforeAll, describe, expect, it } from 'vitest'
import { overviewRoute } from '@/lib/api/registry-routes'
import { prisma } from '@/lib/db'
import { rollupCallStats } from '@/lib/stats/rollup-call-stats'
import { applyManifest, call, issueAgentCredential, resetDatabase, storeDiscoveredTools, yaml } from './helpers'
import { insertCalls, resetCalls } from './stats-fixtures'

const firstRun = async () => {
  const res = await call(overviewRoute, '/api/v1/overview')
  expect(res.status, res.text).toBe(200)
  return res.json.firstRun as Record<string, boolean>
}

beforeAll(async () => {
  await resetDatabase()
  await resetCalls()
  await prisma.agentCredential.deleteMany()
})

describe('the first-run checklist', () => {
  it('follows real state, step by step', async () => {
    const none = { serverReady: false, toolApplied: false, agentCredential: false, callMade: false, callCounted: false }
    expect(await firstRun()).toEqual(none)

    await applyManifest(yaml`
apiVersion: toolroom.dev/v1alpha1
kind: LanguageTool
metadata: { name: srv, namespace: fr }
spec: { endpoint: "http://127.0.0.1:9/mcp" }
`)
    // Registered is not connected: only a discovered (Ready) server counts.
    expect((await firstRun()).serverReady).toBe(false)
    await storeDiscoveredTools('fr', 'srv', [{ name: 'lookup', inputSchema: { type: 'object' } }])
    expect(await firstRun()).toEqual({ ...none, serverReady: true })

    await applyManifest(yaml`
apiVersion: toolroom.dev/v1alpha1
kind: Tool
metadata: { name: fr.lookup, namespace: fr }
spec: { type: mcp, mcpServerRef: { name: srv, tool: lookup }, description: Looks up, inputSchema: { type: object } }
---
apiVersion: toolroom.dev/v1alpha1
kind: Agent
metadata: { name: bot, namespace: fr }
spec: { grants: [fr.lookup] }
`)
    expect(await firstRun()).toMatchObject({ toolApplied: true, agentCredential: false })

    const agent = await prisma.agent.findFirstOrThrow({ where: { name: 'bot' } })
    await issueAgentCredential(agent.id)
    expect(await firstRun()).toMatchObject({ agentCredential: true, callMade: false })
    // A revoked credential is no credential.
    await prisma.agentCredential.updateMany({ data: { revokedAt: new Date() } })
    expect((await firstRun()).agentCredential).toBe(false)
    await issueAgentCredential(agent.id)

    await insertCalls({ count: 1, withinHours: 1, tool: 'fr.lookup', outcome: 'succeeded' })
    expect(await firstRun()).toMatchObject({ callMade: true, callCounted: false })
    await rollupCallStats()
    expect(await firstRun()).toEqual({ serverReady: true, toolApplied: true, agentCredential: true, callMade: true, callCounted: true })
  })
})
