// GET /api/v1/languagetools/{id}/deployment: the workload a LanguageTool's deploymentMode asks for,
// and the endpoint an agent's config.yaml gives for it is where that workload is reached (the
// Service's address, or localhost in the agent's pod for a sidecar).
import { parse } from 'yaml'
import { beforeAll, describe, expect, it } from 'vitest'
import { deploymentRoutes } from '@/lib/api/deployment-routes'
import { agentConfigRoute } from '@/lib/api/fleet-routes'
import { applyManifest, call } from './helpers'

const NS = 'render'
const render = (id: string, headers: Record<string, string> = {}) =>
  call(deploymentRoutes.renderLanguageTool, `/api/v1/languagetools/${id}/deployment?namespace=${NS}`, { params: { id }, headers })

let agentId: string

beforeAll(async () => {
  const applied = await applyManifest(`apiVersion: toolroom.dev/v1alpha1
kind: LanguageTool
metadata: { name: github, namespace: ${NS} }
spec: { image: "ghcr.io/acme/github-mcp:1.4.2", port: 9000, directAccess: true }
---
apiVersion: toolroom.dev/v1alpha1
kind: LanguageTool
metadata: { name: mem0, namespace: ${NS} }
spec: { image: "registry.example/mem0-mcp:1.2.0", port: 8081, deploymentMode: sidecar, directAccess: true }
---
apiVersion: toolroom.dev/v1alpha1
kind: LanguageTool
metadata: { name: hosted, namespace: ${NS} }
spec: { endpoint: "https://hosted.example.com/mcp" }
---
apiVersion: toolroom.dev/v1alpha1
kind: Agent
metadata: { name: renderer, namespace: ${NS} }
spec: { languageTools: [github, mem0] }
`)
  agentId = applied.json.results.find((r: { kind: string }) => r.kind === 'Agent').id
})

async function configEndpoints(): Promise<Record<string, string>> {
  const res = await call(agentConfigRoute, `/api/v1/agents/${agentId}/config.yaml`, { params: { id: agentId } })
  expect(res.status, res.text).toBe(200)
  const tools = parse(res.text).tools as Record<string, { endpoint: string }>
  return Object.fromEntries(Object.entries(tools).map(([name, entry]) => [name, entry.endpoint]))
}

describe('GET /api/v1/languagetools/{id}/deployment', () => {
  it("service mode: a Deployment and a Service whose address is the endpoint in the agent's config.yaml", async () => {
    const res = await render('github')
    expect(res.status, res.text).toBe(200)
    expect(res.json.mode).toBe('service')
    const [deployment, service] = res.json.manifest.items
    expect([deployment.kind, service.kind]).toEqual(['Deployment', 'Service'])
    const address = `http://${service.metadata.name}.${service.metadata.namespace}.svc.cluster.local:${service.spec.ports[0].port}`
    expect(res.json.endpoint).toBe(address)
    expect((await configEndpoints()).github).toBe(address)
  })

  it("sidecar mode: the container for the agent's pod, and config.yaml sends the agent to it on localhost", async () => {
    const res = await render('mem0')
    expect(res.status, res.text).toBe(200)
    expect(res.json).toMatchObject({ mode: 'sidecar', endpoint: 'http://localhost:8081', container: { image: 'registry.example/mem0-mcp:1.2.0' } })
    expect(res.json.container.ports[0].containerPort).toBe(8081)
    expect((await configEndpoints()).mem0).toBe('http://localhost:8081')
  })

  it('answers YAML that kubectl applies (a List) when asked', async () => {
    const res = await render('github', { accept: 'application/yaml' })
    expect(res.status, res.text).toBe(200)
    expect(res.contentType).toContain('yaml')
    expect(parse(res.text).manifest).toMatchObject({ apiVersion: 'v1', kind: 'List' })
  })

  it('refuses a LanguageTool with nothing to run, naming spec.image; 404 for one that is not there', async () => {
    const res = await render('hosted')
    expect(res.status, res.text).toBe(409)
    expect(res.json.errors).toEqual([expect.objectContaining({ field: 'spec.image', rule: 'required' })])
    expect((await render('nope')).status).toBe(404)
  })

  it('needs read access', async () => {
    const res = await call(deploymentRoutes.renderLanguageTool, `/api/v1/languagetools/github/deployment?namespace=${NS}`, {
      params: { id: 'github' },
      as: 'none',
    })
    expect(res.status).toBe(401)
  })
})
