// The demo fleet `npm start` seeds (prisma/seed, lib/seed) is where newcomers try the joch.dev docs'
// own Tool examples first. Both must apply to it as written, dry run and real, and mean what they
// say: the Zendesk ticket tool for the two support agents it names (qualified: a bare name would mean
// support-platform), the GitHub issue tool on the
// github MCP server, each the connector's own governed Tool.
import fs from 'node:fs'
import { beforeAll, describe, expect, it } from 'vitest'
import { applyRoute } from '@/lib/api/registry-routes'
import { fleetRoutes } from '@/lib/api/fleet-routes'
import { prisma } from '@/lib/db'
import { seedDemoFleet } from '@/lib/seed/seed-demo-fleet'
import { call, resetDatabase } from './helpers'

const zendesk = fs.readFileSync('tests/fixtures/joch-zendesk-tool.yaml', 'utf8')
const github = fs.readFileSync('tests/fixtures/joch-github-tool.yaml', 'utf8')
const apply = (body: string, query = '') => call(applyRoute, `/api/v1/apply${query}`, { method: 'POST', body })
const agentFleet = fleetRoutes('Agent')

type Entry = { name: string; provenance: string; state: string; reason: string | null; upstreamName?: string; sourceNamespace?: string }

async function effectiveTools(namespace: string, name: string): Promise<{ tools: Entry[]; excluded: Entry[] }> {
  const { id } = await prisma.agent.findUniqueOrThrow({ where: { namespace_name: { namespace, name } } })
  const res = await call(agentFleet.effectiveTools, `/api/v1/agents/${id}/effective-tools?include=excluded`, { params: { id } })
  expect(res.status).toBe(200)
  return { tools: res.json.effectiveTools, excluded: res.json.excluded }
}
const entry = (tools: Entry[], name: string) => tools.find((t) => t.name === name)

beforeAll(async () => {
  await resetDatabase()
  const seeded = await seedDemoFleet()
  expect(seeded.seeded).toBe(true)
})

describe('the seeds’ Tool examples on the demo install', () => {
  for (const [label, manifest, namespace, name] of [
    ['zendesk.create_ticket (rest)', zendesk, 'support-platform', 'zendesk.create_ticket'],
    ['github.create_issue (mcp)', github, 'platform', 'github.create_issue'],
    ['both in one manifest', `${zendesk}\n---\n${github}`, null, null],
  ] as const) {
    it(`${label}: a dry run and a real apply are accepted and change nothing`, async () => {
      for (const query of ['?dryRun=true', '']) {
        const res = await apply(manifest, query)
        expect(res.status, JSON.stringify(res.json)).toBe(200)
        expect(res.json.summary).toMatchObject({ created: 0, updated: 0 })
        if (name) expect(res.json.results).toEqual([expect.objectContaining({ kind: 'Tool', namespace, name, action: 'unchanged' })])
      }
    })
  }

  it('zendesk.create_ticket is the zendesk connector’s Tool, for the agents its allowedAgents names', async () => {
    const connector = await prisma.connector.findFirstOrThrow({ where: { name: 'zendesk' } })
    expect(connector.namespace).toBe('support-platform')
    // its secretRef resolves where the Tool lives
    await prisma.secret.findUniqueOrThrow({ where: { namespace_name: { namespace: 'support-platform', name: 'zendesk-api-token' } } })

    const triage = await effectiveTools('support', 'support-triage')
    expect(entry(triage.tools, 'zendesk.create_ticket')).toMatchObject({ provenance: 'connector:zendesk', state: 'enabled' })
    const escalation = await effectiveTools('support', 'support-escalation')
    expect(entry(escalation.tools, 'zendesk.create_ticket')).toMatchObject({ provenance: 'grant', state: 'enabled' })
    const faq = await effectiveTools('support', 'support-faq')
    expect(entry(faq.tools, 'zendesk.create_ticket')).toBeUndefined()
    expect(entry(faq.excluded, 'zendesk.create_ticket')).toMatchObject({ state: 'denied', reason: expect.stringContaining('allowedAgents') })
  })

  it('an agent of the same name in a namespace allowedAgents does not name cannot pass it', async () => {
    const impostor = await apply(`apiVersion: toolroom.dev/v1alpha1
kind: Agent
metadata: { name: support-triage, namespace: support-platform }
spec: { grants: [zendesk.create_ticket] }
`)
    expect(impostor.status).toBe(200)
    try {
      const set = await effectiveTools('support-platform', 'support-triage')
      expect(entry(set.tools, 'zendesk.create_ticket')).toBeUndefined()
      expect(entry(set.excluded, 'zendesk.create_ticket')).toMatchObject({
        state: 'denied',
        reason: expect.stringContaining('"support-platform/support-triage" is not in safety.allowedAgents'),
      })
    } finally {
      await prisma.agent.delete({ where: { namespace_name: { namespace: 'support-platform', name: 'support-triage' } } })
    }
  })

  it('github.create_issue is the github connector’s Tool, calling create_issue on the github MCP server', async () => {
    const sre = await effectiveTools('platform', 'sre-oncall')
    const tool = entry(sre.tools, 'github.create_issue')
    expect(tool).toMatchObject({ provenance: 'connector:github', state: 'enabled' })
    // The Tool names no upstream tool, so the gateway calls the last segment of its id on the server
    // its mcpServerRef names (in its namespace): that server has it.
    expect(tool!.upstreamName ?? 'create_issue').toBe('create_issue')
    const server = await prisma.languageTool.findUniqueOrThrow({ where: { namespace_name: { namespace: 'platform', name: 'github' } } })
    expect((server.toolSchemas as { name: string }[]).map((t) => t.name)).toContain('create_issue')
    // The listed Tool governs the name; the server's raw entry is shadowed by it.
    expect(entry(sre.excluded, 'github.create_issue')).toMatchObject({ state: 'shadowed' })
  })
})
