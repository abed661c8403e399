// Discovery keeps secrets and credentials to their origin: an upstream that echoes the auth header it
// was sent (in an error, in a tool's description) leaves no trace of the value in anything stored and
// served to viewers, and a redirect to another origin carries no credential there. Real servers
// (the official SDK's) record what they receive.
import http from 'node:http'
import { randomBytes } from 'node:crypto'
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { afterAll, beforeEach, describe, expect, it } from 'vitest'
import { discoveryRoutes } from '@/lib/api/discovery-routes'
import { resourceRoutes } from '@/lib/api/resource-routes'
import { prisma } from '@/lib/db'
import { runMcpDiscovery } from '@/lib/discovery/run-mcp-discovery'
import { listen, type Listening } from '../support/listen'
import { answerStatelessMcp } from '../support/stateless-mcp'
import { applyManifest, call, resetDatabase, yaml } from './helpers'

const KEY = `key-${randomBytes(16).toString('hex')}`
const servers: Listening[] = []
const serve = async (handler: http.RequestListener) => {
  const s = await listen(handler)
  servers.push(s)
  return s
}

afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()))
})

beforeEach(resetDatabase)

async function registered(endpoint: string): Promise<string> {
  await applyManifest(yaml`
apiVersion: toolroom.dev/v1alpha1
kind: Secret
metadata: { name: upstream-key, namespace: ops }
spec: { type: opaque, stringData: { key: "${KEY}" } }
---
apiVersion: toolroom.dev/v1alpha1
kind: LanguageTool
metadata: { name: echoer, namespace: ops }
spec: { endpoint: "${endpoint}", authHeaders: [{ name: X-Api-Key, secretRef: { name: upstream-key } }] }
`)
  return (await prisma.languageTool.findUniqueOrThrow({ where: { namespace_name: { namespace: 'ops', name: 'echoer' } } })).id
}

/** Everything a viewer can read about the server and its runs, as served. */
async function servedText(id: string): Promise<string> {
  const server = await call(resourceRoutes('LanguageTool').get, `/api/v1/languagetools/${id}`, { params: { id } })
  const runs = await call(discoveryRoutes.runs, '/api/v1/discovery/runs')
  const rows = JSON.stringify([
    await prisma.languageTool.findUniqueOrThrow({ where: { id } }),
    await prisma.discoveryRun.findMany({ where: { subjectId: id } }),
  ])
  return server.text + runs.text + rows
}

const health = (req: http.IncomingMessage, res: http.ServerResponse) => {
  if ((req.url ?? '').startsWith('/health')) {
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}')
    return true
  }
  return false
}

describe('an upstream echoing its auth header', () => {
  it('in an error: the failed run, the server status and the API show no trace of the value', async () => {
    const upstream = await serve((req, res) => {
      if (health(req, res)) return
      res
        .writeHead(401, { 'content-type': 'text/plain' })
        .end(`invalid api key ${req.headers['x-api-key']} (base64 ${Buffer.from(String(req.headers['x-api-key'])).toString('base64')})`)
    })
    const id = await registered(`${upstream.url}/mcp`)
    const run = await runMcpDiscovery({ id, trigger: 'manual' })
    expect(run.status).toBe('failed')
    const text = await servedText(id)
    expect(text).toContain('invalid api key')
    expect(text).not.toContain(KEY)
    expect(text).not.toContain(Buffer.from(KEY).toString('base64').replace(/=+$/, ''))
  })

  it('in what it serves (tool descriptions): the stored surface and compliance report hold no value', async () => {
    const upstream = await serve(async (req, res) => {
      if (health(req, res)) return
      if (req.method !== 'POST') return void res.writeHead(405).end()
      const seen = String(req.headers['x-api-key'])
      await answerStatelessMcp(
        () => {
          const server = new McpServer({ name: `echo ${seen}`, version: '1.0.0' })
          server.registerTool('whoami', { description: `You called with ${seen}`, annotations: { readOnlyHint: true } }, async () => ({
            content: [{ type: 'text', text: seen }],
          }))
          return server
        },
        req,
        res,
      )
    })
    const id = await registered(`${upstream.url}/mcp`)
    const run = await runMcpDiscovery({ id, trigger: 'manual' })
    expect(run.status).toBe('succeeded')
    const text = await servedText(id)
    expect(text).toContain('You called with')
    expect(text).not.toContain(KEY)
  })
})

describe('a redirect', () => {
  it('to another origin carries no credential there; within the origin it keeps them', async () => {
    const elsewhere: http.IncomingHttpHeaders[] = []
    const other = await serve((req, res) => {
      elsewhere.push(req.headers)
      res.writeHead(401).end('nope')
    })
    const origin: http.IncomingHttpHeaders[] = []
    const upstream = await serve((req, res) => {
      if (health(req, res)) return
      origin.push(req.headers)
      if (req.url === '/mcp') return void res.writeHead(307, { location: '/moved' }).end()
      res.writeHead(307, { location: `${other.url}/mcp` }).end()
    })
    const id = await registered(`${upstream.url}/mcp`)
    await runMcpDiscovery({ id, trigger: 'manual' })
    expect(origin.filter((h) => h['x-api-key'] === KEY).length).toBeGreaterThanOrEqual(2)
    expect(elsewhere.length).toBeGreaterThan(0)
    expect(JSON.stringify(elsewhere)).not.toContain(KEY)
  })
})
