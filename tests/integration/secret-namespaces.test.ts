// A secretRef resolves only in the referrer's namespace (lib/secrets/secret-ref.ts): apply and REST
// create/replace refuse one that names another namespace, and discovery and the gateway refuse to
// open one stored anyway (written before the rule, or around validation). Real listeners record every
// header they receive, so a leak of the other namespace's value would show.
import http from 'node:http'
import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { agentCredentialRoutes } from '@/lib/api/agent-credential-routes'
import { gatewayRoutes } from '@/lib/api/gateway-routes'
import { applyRoute } from '@/lib/api/registry-routes'
import { resourceRoutes } from '@/lib/api/resource-routes'
import { prisma } from '@/lib/db'
import { runMcpDiscovery } from '@/lib/discovery/run-mcp-discovery'
import { listen, type Listening } from '../support/listen'
import { applyManifest, call, resetDatabase, yaml } from './helpers'

const STRIPE = `sk_live_${randomBytes(16).toString('hex')}`
const OWN = `own-${randomBytes(16).toString('hex')}`

let listener: Listening
const received: http.IncomingHttpHeaders[] = []
const leaked = () => received.filter((h) => JSON.stringify(h).includes(STRIPE))

const secrets = yaml`
apiVersion: toolroom.dev/v1alpha1
kind: Secret
metadata: { name: stripe-secret-key, namespace: finance }
spec: { type: bearer, stringData: { token: "${STRIPE}" } }
---
apiVersion: toolroom.dev/v1alpha1
kind: Secret
metadata: { name: own-token, namespace: ops }
spec: { type: bearer, stringData: { token: "${OWN}" } }
`

const languageTool = (ref: string) => ({
  metadata: { name: 'probe', namespace: 'ops' },
  spec: { endpoint: `${listener.url}/mcp`, authHeaders: [{ name: 'X-Api-Key', secretRef: { name: ref } }] },
})

const restTool = (ref: string) => ({
  metadata: { name: 'ops.lookup', namespace: 'ops' },
  spec: {
    type: 'rest',
    description: 'Looks something up',
    inputSchema: { type: 'object' },
    sideEffects: { level: 'read_only' },
    endpoint: { method: 'GET', url: `${listener.url}/lookup`, auth: { type: 'bearer', secretRef: { name: ref } } },
  },
})

beforeAll(async () => {
  listener = await listen((req, res) => {
    received.push(req.headers)
    res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'no' }))
  })
})

afterAll(async () => {
  await listener?.close()
})

async function freshRegistry() {
  await resetDatabase()
  received.length = 0
  await applyManifest(secrets)
}

const refusal = (json: { errors?: { field: string; rule: string }[] }) => json.errors?.map(({ field, rule }) => ({ field, rule }))

describe('a secretRef into another namespace', () => {
  beforeAll(freshRegistry)

  it('is refused by apply, naming the field and the rule, for Tools and LanguageTools alike', async () => {
    const manifest = yaml`
apiVersion: toolroom.dev/v1alpha1
kind: LanguageTool
metadata: { name: probe, namespace: ops }
spec:
  endpoint: "${listener.url}/mcp"
  authHeaders: [{ name: X-Api-Key, secretRef: { name: own-token } }, { name: Authorization, secretRef: { name: finance/stripe-secret-key } }]
---
apiVersion: toolroom.dev/v1alpha1
kind: Tool
metadata: { name: ops.lookup, namespace: ops }
spec:
  type: rest
  description: Looks something up
  inputSchema: { type: object }
  endpoint: { method: GET, url: "${listener.url}/lookup", auth: { type: bearer, secretRef: { name: finance/stripe-secret-key } } }
`
    for (const dryRun of [true, false]) {
      const res = await call(applyRoute, `/api/v1/apply${dryRun ? '?dryRun=true' : ''}`, { method: 'POST', body: manifest })
      expect(res.status).toBe(422)
      expect(res.json.errors).toEqual([
        expect.objectContaining({
          document: 0,
          field: 'spec.authHeaders[1].secretRef.name',
          rule: 'secret-namespace',
          message: expect.stringContaining('"finance"'),
        }),
        expect.objectContaining({ document: 1, field: 'spec.endpoint.auth.secretRef.name', rule: 'secret-namespace' }),
      ])
    }
    expect(await prisma.languageTool.count()).toBe(0)
    expect(await prisma.tool.count()).toBe(0)
    expect(received).toEqual([])
  })

  it('is refused by REST create and replace; its own namespace, spelled either way, is accepted', async () => {
    const servers = resourceRoutes('LanguageTool')
    const tools = resourceRoutes('Tool')
    const badServer = await call(servers.create, '/api/v1/languagetools', { method: 'POST', body: languageTool('finance/stripe-secret-key') })
    expect(badServer.status).toBe(422)
    expect(refusal(badServer.json)).toEqual([{ field: 'spec.authHeaders[0].secretRef.name', rule: 'secret-namespace' }])
    const badTool = await call(tools.create, '/api/v1/tools', { method: 'POST', body: restTool('finance/stripe-secret-key') })
    expect(badTool.status).toBe(422)
    expect(refusal(badTool.json)).toEqual([{ field: 'spec.endpoint.auth.secretRef.name', rule: 'secret-namespace' }])

    const server = await call(servers.create, '/api/v1/languagetools', { method: 'POST', body: languageTool('own-token') })
    expect(server.status).toBe(201)
    const tool = await call(tools.create, '/api/v1/tools', { method: 'POST', body: restTool('ops/own-token') })
    expect(tool.status).toBe(201)

    const replacedServer = await call(servers.replace, `/api/v1/languagetools/${server.json.id}`, {
      method: 'PUT',
      params: { id: server.json.id },
      body: languageTool('finance/stripe-secret-key'),
    })
    expect(replacedServer.status).toBe(422)
    expect(refusal(replacedServer.json)).toEqual([{ field: 'spec.authHeaders[0].secretRef.name', rule: 'secret-namespace' }])
    const replacedTool = await call(tools.replace, `/api/v1/tools/${tool.json.id}`, {
      method: 'PUT',
      params: { id: tool.json.id },
      body: restTool('finance/stripe-secret-key'),
    })
    expect(replacedTool.status).toBe(422)
    expect((await prisma.tool.findUniqueOrThrow({ where: { id: tool.json.id } })).spec).toMatchObject({
      endpoint: { auth: { secretRef: { name: 'ops/own-token' } } },
    })
    expect(leaked()).toEqual([])
  })
})

describe('a stored secretRef into another namespace (written before the rule)', () => {
  beforeAll(freshRegistry)

  it('is not opened by discovery: the run fails naming the rule and the server never sees the value', async () => {
    const created = await call(resourceRoutes('LanguageTool').create, '/api/v1/languagetools', { method: 'POST', body: languageTool('own-token') })
    expect(created.status).toBe(201)
    await prisma.languageTool.update({
      where: { id: created.json.id },
      data: { spec: { ...languageTool('finance/stripe-secret-key').spec, port: 8080, deploymentMode: 'service', transport: 'streamable-http' } },
    })

    const run = await runMcpDiscovery({ id: created.json.id, trigger: 'manual' })
    expect(run.status).toBe('failed')
    expect(run.error).toMatch(/own namespace \("ops"\), not "finance"/)
    expect(leaked()).toEqual([])
    expect((await prisma.languageTool.findUniqueOrThrow({ where: { id: created.json.id } })).phase).toBe('Failed')
  })

  it('is not opened by the gateway: the call fails as secret_unavailable and the upstream never sees the value', async () => {
    await applyManifest(yaml`
apiVersion: toolroom.dev/v1alpha1
kind: Tool
metadata: { name: ops.lookup, namespace: ops }
spec:
  type: rest
  description: Looks something up
  inputSchema: { type: object }
  sideEffects: { level: read_only }
  endpoint: { method: GET, url: "${listener.url}/lookup", auth: { type: bearer, secretRef: { name: own-token } } }
---
apiVersion: toolroom.dev/v1alpha1
kind: Agent
metadata: { name: caller, namespace: ops }
spec: { grants: [ops.lookup] }
`)
    await prisma.tool.update({
      where: { namespace_name: { namespace: 'ops', name: 'ops.lookup' } },
      data: { spec: restTool('finance/stripe-secret-key').spec },
    })
    const agent = await prisma.agent.findUniqueOrThrow({ where: { namespace_name: { namespace: 'ops', name: 'caller' } } })
    const credential = await call(agentCredentialRoutes.createCredential, `/api/v1/agents/${agent.id}/credentials`, {
      method: 'POST',
      body: { name: 'test' },
      params: { id: agent.id },
    })
    expect(credential.status).toBe(201)

    const res = await call(gatewayRoutes.callTool, '/api/v1/gateway/tools/ops.lookup/call', {
      method: 'POST',
      body: { arguments: {} },
      params: { toolId: 'ops.lookup' },
      as: { token: credential.json.token },
    })
    expect(res.status).toBe(502)
    expect(res.text).toContain('own namespace')
    expect(leaked()).toEqual([])
    expect(received).toEqual([])
    const recorded = await prisma.toolCall.findFirstOrThrow({ where: { toolId: 'ops.lookup' }, orderBy: { startedAt: 'desc' } })
    expect(recorded).toMatchObject({ outcome: 'failed', errorCode: 'secret_unavailable' })
  })
})
