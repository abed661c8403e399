import fs from 'node:fs'
import { beforeEach, describe, expect, it } from 'vitest'
import { applyRoute } from '@/lib/api/registry-routes'
import { prisma } from '@/lib/db'
import { call, countRows, resetDatabase, yaml } from './helpers'

const zendesk = fs.readFileSync('tests/fixtures/joch-zendesk-tool.yaml', 'utf8')
const mem0 = fs.readFileSync('tests/fixtures/langop-mem0-languagetool.yaml', 'utf8')
const apply = (body: string, query = '', contentType?: string) => call(applyRoute, `/api/v1/apply${query}`, { method: 'POST', body, contentType })

const echoTool = (name: string, extra = '') => yaml`
apiVersion: toolroom.dev/v1alpha1
kind: Tool
metadata:
  name: ${name}
spec:
  type: function
  description: Echo the input back.
  inputSchema:
    type: object
    properties:
      value: { type: string }
${extra}`

beforeEach(resetDatabase)

describe('POST /api/v1/apply', () => {
  it('applies the seeds’ manifests as written and reports each document', async () => {
    const res = await apply(`${zendesk}\n---\n${mem0}`)
    expect(res.status).toBe(200)
    expect(res.json.results).toEqual([
      expect.objectContaining({ index: 0, kind: 'Tool', namespace: 'support-platform', name: 'zendesk.create_ticket', action: 'created' }),
      expect.objectContaining({ index: 1, kind: 'LanguageTool', namespace: 'language-operator-myapp', name: 'mem0-memory', action: 'created' }),
    ])
    const tool = await prisma.tool.findFirstOrThrow({ where: { name: 'zendesk.create_ticket' } })
    expect(tool.level).toBe('external_write')
    expect(tool.type).toBe('rest')
    // status in a manifest is Toolroom's to write: the seed's 412 calls are not taken as fact
    expect(tool.totalCalls7d).toBe(0)
    expect((tool.spec as { safety: { rateLimit: { callsPerMinute: number } } }).safety.rateLimit.callsPerMinute).toBe(10)
    // key order is kept as written
    expect(Object.keys(tool.spec as object)).toEqual([
      'type',
      'description',
      'endpoint',
      'inputSchema',
      'outputSchema',
      'sideEffects',
      'safety',
      'observability',
    ])
  })

  it('changes nothing when an unchanged manifest is applied again', async () => {
    await apply(`${zendesk}\n---\n${mem0}`)
    const before = await prisma.tool.findFirstOrThrow({ where: { name: 'zendesk.create_ticket' } })
    const res = await apply(`${zendesk}\n---\n${mem0}`)
    expect(res.json.summary).toEqual({ created: 0, updated: 0, unchanged: 2, deleted: 0 })
    const after = await prisma.tool.findFirstOrThrow({ where: { name: 'zendesk.create_ticket' } })
    expect(after.updatedAt).toEqual(before.updatedAt)
    expect(after.generation).toBe(1)
  })

  it('updates a changed document and bumps its generation', async () => {
    await apply(zendesk)
    const res = await apply(zendesk.replace('callsPerMinute: 10', 'callsPerMinute: 20'))
    expect(res.json.results[0].action).toBe('updated')
    const tool = await prisma.tool.findFirstOrThrow({ where: { name: 'zendesk.create_ticket' } })
    expect(tool.generation).toBe(2)
  })

  it('accepts JSON: one document, an array, and a Kubernetes List', async () => {
    const doc = {
      apiVersion: 'toolroom.dev/v1alpha1',
      kind: 'Tool',
      metadata: { name: 'acme.one' },
      spec: { type: 'function', description: 'One', inputSchema: { type: 'object' } },
    }
    expect((await apply(JSON.stringify(doc), '', 'application/json')).json.summary.created).toBe(1)
    const two = { ...doc, metadata: { name: 'acme.two' } }
    expect((await apply(JSON.stringify([doc, two]), '', 'application/json')).json.summary).toEqual({ created: 1, updated: 0, unchanged: 1, deleted: 0 })
    const three = { ...doc, metadata: { name: 'acme.three' } }
    expect((await apply(JSON.stringify({ kind: 'List', items: [three] }), '', 'application/json')).json.summary.created).toBe(1)
  })

  it('accepts MCPServer as an alias of LanguageTool', async () => {
    const res = await apply(yaml`
apiVersion: joch.dev/v1alpha1
kind: MCPServer
metadata: { name: github, namespace: tools }
spec: { endpoint: "http://127.0.0.1:4801/mcp" }
`)
    expect(res.status).toBe(200)
    expect(res.json.results[0].kind).toBe('LanguageTool')
  })

  it('validates without writing on ?dryRun=true', async () => {
    const res = await apply(`${zendesk}\n---\n${mem0}`, '?dryRun=true')
    expect(res.status).toBe(200)
    expect(res.json.dryRun).toBe(true)
    expect(res.json.summary).toEqual({ created: 2, updated: 0, unchanged: 0, deleted: 0 })
    expect(await countRows()).toMatchObject({ tools: 0, languageTools: 0 })
  })
})

describe('POST /api/v1/apply refuses bad input and writes nothing', () => {
  async function expectRefused(body: string, expected: Array<{ document?: number; field?: string; rule: string }>, contentType?: string) {
    const res = await apply(body, '', contentType)
    expect(res.status).toBe(422)
    expect(res.contentType).toBe('application/problem+json')
    expect(res.json.detail).toMatch(/nothing was written/)
    for (const e of expected) expect(res.json.errors).toContainEqual(expect.objectContaining(e))
    expect(await countRows()).toEqual({ tools: 0, languageTools: 0, connectors: 0, units: 0, agents: 0, secrets: 0, policies: 0 })
    return res.json
  }

  it('malformed YAML, with the document it is in', async () => {
    const body = await expectRefused(`${echoTool('acme.ok')}\n---\nkind: Tool\nmetadata: {name: [unclosed\n`, [
      { document: 1, field: '(document)', rule: 'yaml-syntax' },
    ])
    expect(body.errors[0].message).toMatch(/line|flow|collection/i)
  })

  it('malformed JSON', () => expectRefused('{"kind": "Tool", ', [{ field: '(document)', rule: 'json-syntax' }], 'application/json'))

  it('duplicate keys in YAML', () => expectRefused('kind: Tool\nkind: Agent\n', [{ rule: 'yaml-syntax' }]))

  it('an unknown kind and a wrong apiVersion', () =>
    expectRefused(
      `${echoTool('acme.ok')}\n---\napiVersion: v1\nkind: Pod\nmetadata: {name: x}\n---\n${echoTool('acme.b').replace('toolroom.dev/v1alpha1', 'langop.io/v1alpha1')}`,
      [
        { document: 1, field: 'kind', rule: 'unknown-kind' },
        { document: 2, field: 'apiVersion', rule: 'api-version' },
      ],
    ))

  it('a non-canonical tool id', () => expectRefused(echoTool('Acme-Tools.Echo'), [{ document: 0, field: 'metadata.name', rule: 'canonical-id' }]))

  it('duplicate ids in one manifest', () =>
    expectRefused(`${echoTool('acme.echo')}\n---\n${echoTool('acme.echo')}`, [{ document: 1, field: 'metadata.name', rule: 'duplicate' }]))

  it('reserved namespaces: toolroom.* and a connector slug', () =>
    expectRefused(
      `${echoTool('toolroom.list_tools')}\n---\n${echoTool('github.create_issue')}\n---\n` +
        yaml`
apiVersion: toolroom.dev/v1alpha1
kind: Connector
metadata: { name: github }
spec: { tools: [github.list_repos] }
`,
      [
        { document: 0, field: 'metadata.name', rule: 'reserved-namespace' },
        { document: 1, field: 'metadata.name', rule: 'reserved-namespace' },
      ],
    ))

  it('an invalid JSON Schema in inputSchema and outputSchema', () =>
    expectRefused(
      echoTool('acme.bad', '  outputSchema:\n    type: object\n    properties:\n      n: { type: 12 }').replace(
        'value: { type: string }',
        'value: { type: strang }',
      ),
      [
        { document: 0, field: 'spec.inputSchema', rule: 'json-schema' },
        { document: 0, field: 'spec.outputSchema', rule: 'json-schema' },
      ],
    ))

  it('enum values and unknown fields, each named', () =>
    expectRefused(echoTool('acme.bad', '  sideEffects:\n    level: catastrophic\n  colour: blue').replace('metadata:', 'metadata:\n  owner: me'), [
      { field: 'spec.sideEffects.level', rule: 'enum' },
      { field: 'spec.colour', rule: 'unknown-field' },
      { field: 'metadata.owner', rule: 'unknown-field' },
    ]))

  it('a unit cycle', () =>
    expectRefused(
      yaml`
apiVersion: toolroom.dev/v1alpha1
kind: Unit
metadata: { name: a }
spec: { parent: b }
---
apiVersion: toolroom.dev/v1alpha1
kind: Unit
metadata: { name: b }
spec: { parent: a }
`,
      [{ rule: 'cycle', field: 'spec.parent' }],
    ))

  it('lists every error of every document at once', async () => {
    const body = await expectRefused(`${echoTool('Bad')}\n---\n${echoTool('acme.fine')}\n---\n${echoTool('also bad')}`, [
      { document: 0, rule: 'canonical-id' },
      { document: 2, rule: 'canonical-id' },
    ])
    expect(body.detail).toMatch(/in 2 documents/)
  })

  it('an empty manifest', () => expectRefused('\n---\n', [{ field: '(manifest)', rule: 'required' }]))

  it('a YAML alias bomb', () => {
    const bomb = [
      'a: &a ["x","x","x","x","x","x","x","x","x"]',
      ...Array.from(
        { length: 8 },
        (_, i) =>
          `${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)}]`,
      ),
    ].join('\n')
    return expectRefused(bomb, [{ rule: 'yaml-syntax' }])
  })

  // Refused before parsing now (more than 100 levels), not by the JSON Schema check after it.
  it('deeply nested input', () =>
    expectRefused(echoTool('acme.deep', `  outputSchema: ${'{"a":'.repeat(200)}1${'}'.repeat(200)}`), [{ field: '(manifest)', rule: 'max-depth' }]))

  it('a body over the size limit (413)', async () => {
    const res = await apply(`${echoTool('acme.big')}\n# ${'x'.repeat(5 * 1024 * 1024)}`)
    expect(res.status).toBe(413)
    expect(res.contentType).toBe('application/problem+json')
    expect(await countRows()).toMatchObject({ tools: 0 })
  })

  it('an unsupported content type (415)', async () => {
    const res = await apply(echoTool('acme.x'), '', 'image/png')
    expect(res.status).toBe(415)
    expect(res.json.detail).toMatch(/application\/yaml/)
  })

  it('a bad dryRun value (400 naming the parameter)', async () => {
    const res = await apply(echoTool('acme.x'), '?dryRun=maybe')
    expect(res.status).toBe(400)
    expect(res.json.errors[0]).toMatchObject({ field: 'dryRun', rule: 'enum' })
  })
})
