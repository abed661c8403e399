// An agent's config.yaml sends it through the gateway, at an address it can reach: the gateway URL
// from TOOLROOM_PUBLIC_URL, else the request as the public port received it (X-Forwarded-* only from
// the front or trusted proxies); upstream servers only behind the gateway unless marked for direct
// access; the agent itself may fetch its own with its credential, and nothing else with it.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { reloadConfig } from '@/lib/config'
import { parse } from 'yaml'
import { agentCredentialRoutes } from '@/lib/api/agent-credential-routes'
import { agentConfigRoute } from '@/lib/api/fleet-routes'
import { applyRoute } from '@/lib/api/registry-routes'
import { resourceRoutes } from '@/lib/api/resource-routes'
import { prisma } from '@/lib/db'
import { createGatewayServer } from '@/lib/gateway/server'
import { listen, type Listening } from '../support/listen'
import { applyManifest, call } from './helpers'

const ENV = ['TOOLROOM_PUBLIC_URL', 'TOOLROOM_TRUSTED_PROXIES'] as const
const saved = Object.fromEntries(ENV.map((k) => [k, process.env[k]]))

let ids: Record<'a' | 'b', string>
let tokens: Record<'a' | 'b', { token: string; id: string }>

const config = (agent: 'a' | 'b', opts: Parameters<typeof call>[2] = {}) =>
  call(agentConfigRoute, `/api/v1/agents/${ids[agent]}/config.yaml`, { params: { id: ids[agent] }, ...opts })
const gatewayOf = (yaml: string) => (parse(yaml) as { tools: Record<string, { endpoint: string }> }).tools.toolroom.endpoint

beforeAll(async () => {
  await prisma.$executeRawUnsafe('TRUNCATE "LanguageTool", "Agent", "AgentCredential"')
  await applyManifest(`apiVersion: toolroom.dev/v1alpha1
kind: LanguageTool
metadata: { name: gh, namespace: cfg }
spec: { endpoint: "http://127.0.0.1:4801/mcp" }
---
apiVersion: toolroom.dev/v1alpha1
kind: LanguageTool
metadata: { name: legacy, namespace: cfg }
spec: { endpoint: "http://legacy.internal:9000/mcp", directAccess: true }
---
apiVersion: toolroom.dev/v1alpha1
kind: LanguageTool
metadata: { name: toolroom, namespace: cfg }
spec: { endpoint: "http://impostor.internal:9000/mcp", directAccess: true }
---
apiVersion: toolroom.dev/v1alpha1
kind: Agent
metadata: { name: a, namespace: cfg }
spec: { languageTools: [gh, legacy, toolroom] }
---
apiVersion: toolroom.dev/v1alpha1
kind: Agent
metadata: { name: b, namespace: cfg }
spec: { languageTools: [gh] }
`)
  const idOf = async (name: string) => (await prisma.agent.findUniqueOrThrow({ where: { namespace_name: { namespace: 'cfg', name } } })).id
  ids = { a: await idOf('a'), b: await idOf('b') }
  const issue = async (agent: 'a' | 'b') => {
    const res = await call(agentCredentialRoutes.createCredential, `/api/v1/agents/${ids[agent]}/credentials`, {
      method: 'POST',
      body: { name: 'cfg' },
      params: { id: ids[agent] },
    })
    expect(res.status, res.text).toBe(201)
    return { token: res.json.token as string, id: res.json.id as string }
  }
  tokens = { a: await issue('a'), b: await issue('b') }
})

afterEach(() => {
  for (const k of ENV)
    if (saved[k] === undefined) delete process.env[k]
    else process.env[k] = saved[k]
  reloadConfig()
})

describe('what config.yaml hands out', () => {
  it('the gateway, and only the servers marked for direct access, each under a comment that its calls are ungoverned', async () => {
    const res = await config('a')
    expect(res.status, res.text).toBe(200)
    const tools = (parse(res.text) as { tools: Record<string, { endpoint: string; protocol: string }> }).tools
    expect(tools).toEqual({
      toolroom: { endpoint: 'http://toolroom.test/mcp', protocol: 'mcp' },
      legacy: { endpoint: 'http://legacy.internal:9000/mcp', protocol: 'mcp' },
      // A server named like the gateway's entry never takes its place.
      'cfg/toolroom': { endpoint: 'http://impostor.internal:9000/mcp', protocol: 'mcp' },
    })
    expect(res.text).not.toContain('127.0.0.1:4801')
    expect(res.text).toMatch(
      /# direct access \(spec\.directAccess\): calls made here bypass Toolroom, with no\n\s+# approvals, rate limits, argument checks or call log\n\s+legacy:/,
    )
    expect((await config('b')).text).toBe('tools:\n  toolroom:\n    endpoint: http://toolroom.test/mcp\n    protocol: mcp\n')
  })

  it('spec.directAccess must be a boolean', async () => {
    const res = await call(applyRoute, '/api/v1/apply?dryRun=true', {
      method: 'POST',
      body: 'apiVersion: toolroom.dev/v1alpha1\nkind: LanguageTool\nmetadata: { name: odd, namespace: cfg }\nspec: { endpoint: "http://odd.internal/mcp", directAccess: "yes" }\n',
    })
    expect(res.status).toBe(422)
    expect(JSON.stringify(res.json)).toContain('spec.directAccess')
  })
})

describe('the gateway address', () => {
  it('is TOOLROOM_PUBLIC_URL when set, whatever the request says', async () => {
    process.env.TOOLROOM_PUBLIC_URL = 'https://tools.example.com/portal'
    process.env.TOOLROOM_TRUSTED_PROXIES = '0.0.0.0/0'
    reloadConfig()
    const res = await config('a', { headers: { host: 'inside:3001', 'x-forwarded-host': 'evil.example' } })
    expect(gatewayOf(res.text)).toBe('https://tools.example.com/mcp')
  })

  it('is the Host the request was sent to; a client’s X-Forwarded-Host and -Proto are ignored without a trusted proxy', async () => {
    const res = await config('a', { headers: { host: 'toolroom.corp:8080', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' } })
    expect(gatewayOf(res.text)).toBe('http://toolroom.corp:8080/mcp')
    // Nor does a made-up copy of the front's proof make them believable.
    const forged = await config('a', {
      headers: { host: 'toolroom.corp:8080', 'x-forwarded-host': 'evil.example', 'x-toolroom-peer-address': '127.0.0.1', 'x-toolroom-peer-proof': 'forged' },
    })
    expect(gatewayOf(forged.text)).toBe('http://toolroom.corp:8080/mcp')
  })

  it('without the front, follows X-Forwarded-Host and -Proto once TOOLROOM_TRUSTED_PROXIES names the proxies', async () => {
    process.env.TOOLROOM_TRUSTED_PROXIES = '10.0.0.0/8'
    reloadConfig()
    const res = await config('a', { headers: { host: 'internal:3000', 'x-forwarded-host': 'tools.example.com, proxy.local', 'x-forwarded-proto': 'https' } })
    expect(gatewayOf(res.text)).toBe('https://tools.example.com/mcp')
    // Garbage in a forwarded header is not an address: the Host it came with is.
    const odd = await config('a', { headers: { host: 'internal:3000', 'x-forwarded-host': 'a b/c@d', 'x-forwarded-proto': 'javascript' } })
    expect(gatewayOf(odd.text)).toBe('http://internal:3000/mcp')
  })
})

describe('through the lean front', () => {
  let web: Listening
  let front: http.Server
  let frontPort: number

  beforeAll(async () => {
    // Stands in for Next.js behind the front: the route handler, with the headers the front passed on.
    web = await listen(async (req, res) => {
      const id = /^\/api\/v1\/agents\/([^/]+)\/config\.yaml/.exec(req.url ?? '')?.[1] ?? ''
      const headers: Record<string, string> = {}
      for (const name of ['host', 'x-forwarded-host', 'x-forwarded-proto', 'authorization', 'x-toolroom-peer-address', 'x-toolroom-peer-proof'])
        if (typeof req.headers[name] === 'string') headers[name] = req.headers[name] as string
      const answer = await agentConfigRoute(new Request(`http://localhost:3001${req.url}`, { headers }), { params: Promise.resolve({ id }) })
      res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'text/plain' }).end(await answer.text())
    })
    front = createGatewayServer({ port: 0, upstream: web.url })
    await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve))
    frontPort = (front.address() as AddressInfo).port
  })

  afterAll(async () => {
    await new Promise<void>((resolve) => {
      front.closeAllConnections()
      front.close(() => resolve())
    })
    await web.close()
  })

  /** GET through the front with the Host and headers a client sends (fetch cannot set Host). */
  const viaFront = (headers: Record<string, string>) =>
    new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = http.request(
        { host: '127.0.0.1', port: frontPort, path: `/api/v1/agents/${ids.a}/config.yaml`, headers: { authorization: `Bearer ${tokens.a.token}`, ...headers } },
        (res) => {
          let text = ''
          res
            .setEncoding('utf8')
            .on('data', (c) => (text += c))
            .on('end', () => resolve({ status: res.statusCode ?? 0, text }))
        },
      )
      req.on('error', reject).end()
    })

  it('names the host the public port received, not the web app’s internal port, and never a client’s forwarded headers', async () => {
    const res = await viaFront({ host: 'toolroom.corp:8080', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' })
    expect(res.status, res.text).toBe(200)
    expect(gatewayOf(res.text)).toBe('http://toolroom.corp:8080/mcp')
    expect(res.text).not.toContain('localhost:3001')
  })

  it('takes X-Forwarded-Host and -Proto from a trusted proxy in front of it', async () => {
    process.env.TOOLROOM_TRUSTED_PROXIES = '127.0.0.1'
    reloadConfig()
    const res = await viaFront({ host: '127.0.0.1', 'x-forwarded-host': 'tools.example.com', 'x-forwarded-proto': 'https' })
    expect(gatewayOf(res.text)).toBe('https://tools.example.com/mcp')
  })
})

describe('the agent’s own credential', () => {
  it('fetches its own config.yaml', async () => {
    const res = await config('a', { as: { token: tokens.a.token } })
    expect(res.status, res.text).toBe(200)
    expect(gatewayOf(res.text)).toBe('http://toolroom.test/mcp')
  })

  it('is refused another agent’s config.yaml (403) and every other route (401)', async () => {
    const other = await config('b', { as: { token: tokens.a.token } })
    expect(other.status).toBe(403)
    expect(other.json.detail).toMatch(/own agent/)
    const agent = await call(resourceRoutes('Agent').get, `/api/v1/agents/${ids.a}`, { params: { id: ids.a }, as: { token: tokens.a.token } })
    expect(agent.status).toBe(401)
  })

  it('stops working once revoked, at once in the process that revoked it', async () => {
    // Used first, so this process holds its verdict (lib/auth/agent-identity-cache.ts): the revocation must drop it, not outwait it.
    expect((await config('b', { as: { token: tokens.b.token } })).status).toBe(200)
    const revoked = await call(agentCredentialRoutes.revokeCredential, `/api/v1/agents/${ids.b}/credentials/${tokens.b.id}/revoke`, {
      method: 'POST',
      params: { id: ids.b, credentialId: tokens.b.id },
    })
    expect(revoked.status, revoked.text).toBeLessThan(300)
    expect((await config('b', { as: { token: tokens.b.token } })).status).toBe(401)
  })
})
