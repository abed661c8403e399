// Apply takes MCP Registry server.json documents (docs/design/registry-api.md#taking-serverjson-in):
// a remote becomes a LanguageTool, a packages-only server is refused naming `remotes`, and every
// problem is named at the server.json field it is in, with its line. Hostile documents: schema
// violations, unresolvable URL templates, header names, names with nothing usable, oversized bodies.
import { describe, expect, it } from 'vitest'
import { applyRoute } from '@/lib/api/registry-routes'
import { MAX_MANIFEST_BYTES } from '@/lib/api/registry-routes'
import { prisma } from '@/lib/db'
import { call } from './helpers'

const NS = 'srvjson'
const apply = (body: string, dryRun = false) =>
  call(applyRoute, `/api/v1/apply${dryRun ? '?dryRun=true' : ''}`, {
    method: 'POST',
    body,
    contentType: body.trimStart().startsWith('{') || body.trimStart().startsWith('[') ? 'application/json' : 'application/yaml',
  })

const SCHEMA = 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json'
const serverJson = (fields: Record<string, unknown>) =>
  JSON.stringify({
    $schema: SCHEMA,
    name: 'io.github.acme/Weather_API',
    description: 'Weather forecasts',
    version: '1.0.2',
    _meta: { 'dev.toolroom/registry': { namespace: NS } },
    ...fields,
  })

interface Problem {
  field: string
  rule: string
  message: string
  line?: number
}
const problems = (res: { json: { errors?: Problem[] } }) => res.json.errors ?? []

describe('Apply takes server.json', () => {
  it('makes a LanguageTool of its streamable-http remote, named by the last part of the server name', async () => {
    const res = await apply(
      serverJson({
        remotes: [
          { type: 'sse', url: 'https://weather.example.com/sse' },
          { type: 'streamable-http', url: 'https://weather.example.com/mcp' },
        ],
      }),
    )
    expect(res.status, res.text).toBe(200)
    expect(res.json.results).toEqual([expect.objectContaining({ kind: 'LanguageTool', namespace: NS, name: 'weather-api', action: 'created' })])
    const row = await prisma.languageTool.findUniqueOrThrow({ where: { namespace_name: { namespace: NS, name: 'weather-api' } } })
    expect(row.spec).toEqual({
      endpoint: 'https://weather.example.com/mcp',
      transport: 'streamable-http',
      description: 'Weather forecasts',
      port: 8080,
      deploymentMode: 'service',
    })
    expect(row.annotations).toEqual({ 'toolroom.dev/server-json-name': 'io.github.acme/Weather_API', 'toolroom.dev/server-json-version': '1.0.2' })
    // Applied again unchanged: nothing to do.
    const again = await apply(
      serverJson({
        remotes: [
          { type: 'streamable-http', url: 'https://weather.example.com/mcp' },
          { type: 'sse', url: 'https://x.example/sse' },
        ],
      }),
    )
    expect(again.json.results[0].action).toBe('unchanged')
  })

  it('takes YAML too, an sse remote, a URL template with defaults, and a name chosen under _meta', async () => {
    const res = await apply(
      [
        `$schema: ${SCHEMA}`,
        'name: com.example/tenant-server',
        'description: Per-tenant server',
        'version: 2.0.0',
        '_meta:',
        '  dev.toolroom/registry: { namespace: srvjson, name: tenant }',
        'remotes:',
        '  - type: sse',
        '    url: "https://{tenant}.example.com/{path}"',
        '    variables:',
        '      tenant: { default: acme }',
        '      path: { value: sse }',
        '',
      ].join('\n'),
    )
    expect(res.status, res.text).toBe(200)
    const row = await prisma.languageTool.findUniqueOrThrow({ where: { namespace_name: { namespace: NS, name: 'tenant' } } })
    expect(row.spec).toMatchObject({ endpoint: 'https://acme.example.com/sse', transport: 'sse' })
  })

  it('turns the headers a client must send into headers sent from a Secret named like the server', async () => {
    const res = await apply(
      serverJson({
        name: 'io.github.acme/keyed',
        remotes: [
          {
            type: 'streamable-http',
            url: 'https://keyed.example.com/mcp',
            headers: [
              { name: 'X-Api-Key', isRequired: true, isSecret: true },
              { name: 'X-Trace', description: 'optional' },
            ],
          },
        ],
      }),
      true,
    )
    expect(res.status, res.text).toBe(200)
    expect(res.json.results[0]).toMatchObject({ kind: 'LanguageTool', name: 'keyed' })
  })

  it('refuses a packages-only (stdio) server, naming remotes and why', async () => {
    const res = await apply(serverJson({ packages: [{ registryType: 'npm', identifier: '@acme/weather', version: '1.0.2', transport: { type: 'stdio' } }] }))
    expect(res.status, res.text).toBe(422)
    expect(problems(res)).toEqual([
      expect.objectContaining({ field: 'remotes', rule: 'http-remote-required', message: expect.stringContaining('packages[0].transport.type is "stdio"') }),
    ])
    expect(await prisma.languageTool.count({ where: { namespace: NS, name: 'weather-api', generation: { gt: 1 } } })).toBe(0)
  })

  it('names each problem at its server.json field, with its line, and writes nothing', async () => {
    const yamlText = [
      'name: io.github.acme/located',
      'description: Located',
      'version: 1.0.0',
      'remotes:',
      '  - type: streamable-http',
      '    url: "https://{tenant}.example.com/mcp"',
      '',
    ].join('\n')
    const res = await apply(yamlText)
    expect(res.status, res.text).toBe(422)
    expect(problems(res)).toEqual([expect.objectContaining({ field: 'remotes[0].url', rule: 'url-template', line: 6 })])
    expect(await prisma.languageTool.count({ where: { name: 'located' } })).toBe(0)
  })

  it('refuses what the official schema refuses, naming the field and the rule', async () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [{ name: 'no-slash' }, 'name', 'server-json-pattern'],
      [{ name: 'io.x/тест' }, 'name', 'server-json-pattern'],
      [{ description: 'x'.repeat(101) }, 'description', 'server-json-maxLength'],
      [{ description: undefined }, 'description', 'server-json-required'],
      [{ remotes: [{ type: 'streamable-http', url: 'javascript:alert(1)' }] }, 'remotes[0].url', 'server-json-pattern'],
      [{ remotes: [{ type: 'websocket', url: 'wss://x.example/' }] }, 'remotes[0].type', 'server-json-enum'],
      [{ remotes: 'https://x.example/mcp' }, 'remotes', 'server-json-type'],
    ]
    for (const [fields, field, rule] of cases) {
      const res = await apply(serverJson({ remotes: [{ type: 'streamable-http', url: 'https://ok.example/mcp' }], ...fields }), true)
      expect(res.status, `${JSON.stringify(fields)}: ${res.text}`).toBe(422)
      expect(
        problems(res).map((p) => [p.field, p.rule]),
        JSON.stringify(fields),
      ).toContainEqual([field, rule])
    }
  })

  it('refuses hostile documents the schema lets through: a name with nothing usable, a header no HTTP can carry, an address with credentials', async () => {
    const remote = { type: 'streamable-http', url: 'https://ok.example/mcp' }
    const cases: [Record<string, unknown>, string][] = [
      [{ name: 'io.x/___', remotes: [remote] }, 'name'],
      [{ remotes: [{ ...remote, headers: [{ name: 'X Key\r\nInjected: 1', isRequired: true }] }] }, 'remotes[0].headers[0].name'],
      [{ remotes: [{ type: 'streamable-http', url: 'http://user:pass@internal.example/mcp' }] }, 'remotes[0].url'],
      [{ remotes: [remote], _meta: { 'dev.toolroom/registry': { namespace: '../etc', name: 'x' } } }, '_meta.dev.toolroom/registry.namespace'],
    ]
    for (const [fields, field] of cases) {
      const res = await apply(serverJson(fields), true)
      expect(res.status, `${JSON.stringify(fields)}: ${res.text}`).toBe(422)
      expect(
        problems(res).map((p) => p.field),
        JSON.stringify(fields),
      ).toContain(field)
    }
  })

  it('refuses an oversized server.json before reading it', async () => {
    const res = await apply(serverJson({ remotes: [{ type: 'sse', url: 'https://x.example/sse' }], description: 'x'.repeat(MAX_MANIFEST_BYTES) }))
    expect(res.status).toBe(413)
  })
})
