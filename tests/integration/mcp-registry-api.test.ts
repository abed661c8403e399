// The MCP Registry API over the LanguageTools (GET /v0.1/servers…, docs/design/registry-api.md): the
// answers held to the official server.json schema and ServerList envelope (vendored in
// vendor/mcp-registry/), the remote always the gateway, the live tools under _meta, pagination,
// search, updated_since and versions as the spec has them, and hostile input.
import fs from 'node:fs'
import path from 'node:path'
import Ajv from 'ajv'
import addFormats from 'ajv-formats'
import { parse } from 'yaml'
import { beforeAll, describe, expect, it } from 'vitest'
import { mcpRegistryRoutes } from '@/lib/api/mcp-registry-routes'
import { prisma } from '@/lib/db'
import { startApiServer } from '../support/api-server'
import { applyManifest, call, storeDiscoveredTools, TEST_ORIGIN, testAdminToken, type Caller } from './helpers'

const VENDOR = path.resolve(__dirname, '../../vendor/mcp-registry')
const serverSchema = JSON.parse(fs.readFileSync(path.join(VENDOR, 'server.schema.json'), 'utf8'))
const excerpt = parse(fs.readFileSync(path.join(VENDOR, 'server-list.openapi-excerpt.yaml'), 'utf8'))
// The OpenAPI excerpt's refs point into its components; ServerDetail there is the server.json schema.
const envelopeSchema = JSON.parse(
  JSON.stringify({
    $schema: 'http://json-schema.org/draft-07/schema#',
    definitions: { ...serverSchema.definitions, ServerList: excerpt.ServerList, ServerResponse: excerpt.ServerResponse },
    $ref: '#/definitions/ServerList',
  }).replaceAll('#/components/schemas/', '#/definitions/'),
)
const ajv = addFormats(new Ajv({ strict: false, allErrors: true }))
const validServerJson = ajv.compile(serverSchema)
const validServerList = ajv.compile(envelopeSchema)
const validServerResponse = ajv.compile({ ...envelopeSchema, $ref: '#/definitions/ServerResponse' })

const NS = 'mcpreg'
const UPSTREAM = 'http://github-mcp.internal.example:9000/mcp'

const list = (query = '', as: Caller = 'admin') => call(mcpRegistryRoutes.listServers, `/v0.1/servers${query}`, { as })
const versions = (serverName: string) =>
  call(mcpRegistryRoutes.listServerVersions, `/v0.1/servers/${encodeURIComponent(serverName)}/versions`, { params: { serverName } })
const version = (serverName: string, v: string) =>
  call(mcpRegistryRoutes.getServerVersion, `/v0.1/servers/${encodeURIComponent(serverName)}/versions/${encodeURIComponent(v)}`, {
    params: { serverName, version: v },
  })

function expectOfficial(body: unknown, validate: typeof validServerList) {
  expect(validate(body), JSON.stringify(validate.errors)).toBe(true)
}

const languageTool = (name: string, spec: string) => `apiVersion: toolroom.dev/v1alpha1
kind: LanguageTool
metadata: { name: ${name}, namespace: ${NS} }
spec: ${spec}
`

let githubId: string

beforeAll(async () => {
  await applyManifest(
    [
      languageTool('github', `{ endpoint: "${UPSTREAM}", description: "GitHub issues and pull requests for the support team" }`),
      languageTool('jira', `{ endpoint: "http://jira-mcp.internal.example/mcp", description: "${'Jira '.repeat(60).trim()}" }`),
      languageTool('mem0', '{ image: "registry.example/mem0-mcp:1.2.0", port: 8080 }'),
    ].join('---\n'),
  )
  await storeDiscoveredTools(NS, 'github', [
    { name: 'search_issues', title: 'Search issues', description: 'Search issues', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
    { name: 'create-issue', description: 'Open an issue', inputSchema: { type: 'object' } },
  ])
  const github = await prisma.languageTool.update({
    where: { namespace_name: { namespace: NS, name: 'github' } },
    data: { serverInfo: { name: 'github-mcp', version: '1.4.2' } },
  })
  githubId = github.id
  // The upstream's own word for its version is served only when it is a plain version.
  await prisma.languageTool.update({
    where: { namespace_name: { namespace: NS, name: 'jira' } },
    data: { serverInfo: { name: 'jira', version: '^2.0 || latest' } },
  })
  await prisma.surfaceChange.createMany({
    data: [
      {
        subjectKind: 'LanguageTool',
        subjectId: githubId,
        namespace: NS,
        name: 'github',
        diff: {},
        status: 'applied',
        detectedAt: new Date('2026-11-20T10:00:00Z'),
      },
      {
        subjectKind: 'LanguageTool',
        subjectId: githubId,
        namespace: NS,
        name: 'github',
        diff: {},
        status: 'rejected',
        detectedAt: new Date('2026-11-21T10:00:00Z'),
      },
    ],
  })
})

describe('GET /v0.1/servers', () => {
  it('lists every LanguageTool as an official server.json entry, in the official ServerList envelope', async () => {
    const res = await list(`?search=${NS}`)
    expect(res.status, res.text).toBe(200)
    expectOfficial(res.json, validServerList)
    for (const entry of res.json.servers) expect(validServerJson(entry.server), JSON.stringify(validServerJson.errors)).toBe(true)
    expect(res.json.servers.map((s: { server: { name: string } }) => s.server.name)).toEqual([
      `dev.toolroom.${NS}/github`,
      `dev.toolroom.${NS}/jira`,
      `dev.toolroom.${NS}/mem0`,
    ])
    expect(res.json.metadata).toEqual({ count: 3 })
  })

  it("points every remote at the gateway, never at the server's own address", async () => {
    const res = await list(`?search=${NS}`)
    for (const entry of res.json.servers) {
      expect(entry.server.remotes).toEqual([expect.objectContaining({ type: 'streamable-http', url: `${TEST_ORIGIN}/mcp` })])
      expect(entry.server.remotes[0].headers[0]).toMatchObject({ name: 'Authorization', isRequired: true, isSecret: true })
    }
    expect(res.text).not.toContain('github-mcp.internal.example')
    expect(res.text).not.toContain('jira-mcp.internal.example')
    expect(res.text).not.toContain('svc.cluster.local')
  })

  it("gives the live tools, their levels and the surface's revision under Toolroom's _meta", async () => {
    const res = await list(`?search=${NS}/github`)
    const [github] = res.json.servers
    expect(github.server.version).toBe('1.4.2')
    expect(github.server.description).toBe('GitHub issues and pull requests for the support team')
    const meta = github._meta['dev.toolroom/registry']
    expect(meta.tools).toEqual([
      {
        name: 'github.search_issues',
        upstreamName: 'search_issues',
        title: 'Search issues',
        description: 'Search issues',
        level: 'read_only',
        levelSource: 'annotations',
      },
      { name: 'github.create_issue', upstreamName: 'create-issue', description: 'Open an issue', level: 'external_write', levelSource: 'default' },
    ])
    // The rejected change left the surface as it was.
    expect(meta.surface).toEqual({ revision: 1, digest: expect.stringMatching(/^sha256:[0-9a-f]{64}$/), changedAt: '2026-11-20T10:00:00.000Z' })
    expect(meta).toMatchObject({ namespace: NS, name: 'github', phase: 'Ready', gateway: `${TEST_ORIGIN}/mcp` })
    expect(github._meta['io.modelcontextprotocol.registry/official']).toMatchObject({ status: 'active', isLatest: true })
  })

  it('serves a hostile upstream version as 0.0.0 and clips a long description to the schema’s 100 characters', async () => {
    const res = await list(`?search=${NS}/jira`)
    const [jira] = res.json.servers
    expect(jira.server.version).toBe('0.0.0')
    expect(Array.from(jira.server.description as string)).toHaveLength(100)
    expect(validServerJson(jira.server)).toBe(true)
  })

  it('pages by cursor, each page in the envelope, until no nextCursor', async () => {
    const names: string[] = []
    let cursor: string | undefined
    do {
      const res = await list(`?search=${NS}&limit=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`)
      expect(res.status, res.text).toBe(200)
      expectOfficial(res.json, validServerList)
      expect(res.json.metadata.count).toBe(res.json.servers.length)
      names.push(...res.json.servers.map((s: { server: { name: string } }) => s.server.name))
      cursor = res.json.metadata.nextCursor
    } while (cursor)
    expect(names).toEqual([`dev.toolroom.${NS}/github`, `dev.toolroom.${NS}/jira`, `dev.toolroom.${NS}/mem0`])
  })

  it('keeps what changed after updated_since: a spec written later, or a surface that moved later', async () => {
    await prisma.languageTool.updateMany({ where: { namespace: NS }, data: { updatedAt: new Date('2026-11-01T00:00:00Z') } })
    const since = (at: string) => list(`?search=${NS}&updated_since=${encodeURIComponent(at)}`)
    const changed = await since('2026-11-10T00:00:00Z')
    expect(changed.status, changed.text).toBe(200)
    expect(changed.json.servers.map((s: { server: { name: string } }) => s.server.name)).toEqual([`dev.toolroom.${NS}/github`])
    expect(changed.json.servers[0]._meta['io.modelcontextprotocol.registry/official'].updatedAt).toBe('2026-11-20T10:00:00.000Z')
    expect((await since('2026-11-20T10:00:00Z')).json.servers).toEqual([])
    expect((await since('2026-10-31T23:00:00-00:30')).json.servers).toHaveLength(3)
  })

  it('filters by version: latest keeps every server, an exact version those that are it', async () => {
    expect((await list(`?search=${NS}&version=latest`)).json.servers).toHaveLength(3)
    const exact = await list(`?search=${NS}&version=1.4.2`)
    expect(exact.json.servers.map((s: { server: { name: string } }) => s.server.name)).toEqual([`dev.toolroom.${NS}/github`])
  })

  it('takes search literally: LIKE wildcards match nothing they do not spell', async () => {
    for (const q of ['%', '_', 'mcpreg%github', "'; DROP TABLE"]) {
      const res = await list(`?search=${encodeURIComponent(q)}`)
      expect(res.status, res.text).toBe(200)
      expect(res.json.servers).toEqual([])
    }
  })

  it('refuses hostile parameters with a problem naming the field', async () => {
    const cases: [string, string][] = [
      ['?cursor=not-a-cursor', 'cursor'],
      [`?cursor=${Buffer.from(JSON.stringify(['a', 'b', "1' OR '1'='1"])).toString('base64url')}`, 'cursor'],
      ['?limit=0', 'limit'],
      ['?limit=101', 'limit'],
      ['?limit=ten', 'limit'],
      ['?updated_since=yesterday', 'updated_since'],
      ['?updated_since=2026-13-40T99:00:00Z', 'updated_since'],
      [`?search=${'a'.repeat(201)}`, 'search'],
      ['?include_deleted=maybe', 'include_deleted'],
      ['?offset=10', 'offset'],
    ]
    for (const [query, field] of cases) {
      const res = await list(query)
      expect(res.status, `${query}: ${res.text}`).toBe(400)
      expect(res.contentType).toContain('application/problem+json')
      expect(JSON.stringify(res.json.errors ?? res.json.detail), query).toContain(field)
    }
  })

  it('refuses text PostgreSQL cannot hold before any query sees it', async () => {
    const res = await list('?search=%00')
    expect(res.status, res.text).toBe(422)
    expect(res.json.errors).toEqual([expect.objectContaining({ field: 'search', rule: 'storable-text' })])
  })

  it('needs read access, like every other read', async () => {
    expect((await list('', 'none')).status).toBe(401)
    expect((await list('', { token: 'trk_not-a-token' })).status).toBe(401)
  })
})

describe('GET /v0.1/servers/{serverName}/versions[/{version}]', () => {
  const github = `dev.toolroom.${NS}/github`

  it("lists a server's one version, in the official envelope", async () => {
    const res = await versions(github)
    expect(res.status, res.text).toBe(200)
    expectOfficial(res.json, validServerList)
    expect(res.json.servers.map((s: { server: { version: string } }) => s.server.version)).toEqual(['1.4.2'])
  })

  it('gives one version by its version or latest, as an official ServerResponse', async () => {
    for (const v of ['latest', '1.4.2']) {
      const res = await version(github, v)
      expect(res.status, res.text).toBe(200)
      expectOfficial(res.json, validServerResponse)
      expect(res.json.server.name).toBe(github)
    }
  })

  it('takes the name with its slash still encoded, as a router may leave it', async () => {
    const res = await versions(`dev.toolroom.${NS}%2Fgithub`)
    expect(res.status, res.text).toBe(200)
    expect(res.json.servers[0].server.name).toBe(github)
  })

  it('answers 404 for a version it does not have and names it does not serve', async () => {
    expect((await version(github, '9.9.9')).status).toBe(404)
    for (const name of [`dev.toolroom.${NS}/nope`, `io.github.someone/github`, `dev.toolroom.${NS}/../github`, 'dev.toolroom.a/b/c', `${NS}/github`]) {
      const res = await versions(name)
      expect(res.status, `${name}: ${res.text}`).toBe(404)
      expect(res.contentType).toContain('application/problem+json')
    }
  })
})

describe('over HTTP, as a registry client calls it', () => {
  it('answers the encoded paths a client sends, and 304 to the ETag it was given', async () => {
    const server = await startApiServer()
    try {
      const headers = { authorization: `Bearer ${await testAdminToken()}` }
      const get = (pathAndQuery: string, extra: Record<string, string> = {}) => fetch(`${server.url}${pathAndQuery}`, { headers: { ...headers, ...extra } })
      const one = await get(`/v0.1/servers/${encodeURIComponent(`dev.toolroom.${NS}/github`)}/versions/latest`)
      expect(one.status).toBe(200)
      const body = await one.json()
      expectOfficial(body, validServerResponse)
      // The gateway of the origin the client reached, as the client reached it.
      expect(body.server.remotes[0].url).toBe(`${server.url}/mcp`)
      const page = await get(`/v0.1/servers?search=${NS}&limit=2`)
      expect(page.status).toBe(200)
      const etag = page.headers.get('etag')
      expect(etag).toBeTruthy()
      expect((await get(`/v0.1/servers?search=${NS}&limit=2`, { 'if-none-match': etag! })).status).toBe(304)
    } finally {
      await server.close()
    }
  })
})
