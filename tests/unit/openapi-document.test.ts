// The OpenAPI document as generated clients use it (README, "GitOps"): Redocly's linter finds nothing
// (redocly.yaml), every operation has a description and an example, the tags are declared, Apply's
// JSON body is typed, the example manifests are valid manifests, and the CLI's committed client types
// are what the document generates now.
import { execFile } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { ALL_CONTRACTS } from '@/lib/api/contracts'
import { EXAMPLE_MANIFESTS } from '@/lib/api/examples'
import { openApiDocument, TAGS } from '@/lib/api/openapi'
import { validateDocument } from '@/lib/manifests/validate-document'
import { GENERATED_CLIENT_PATH, generatedClientTypes } from '@/scripts/openapi-client-types.mjs'

interface Operation {
  operationId: string
  summary?: string
  description?: string
  tags: string[]
  parameters?: { name: string; example?: unknown }[]
  requestBody?: { content: Record<string, { schema?: { $ref?: string; type?: string }; example?: unknown }> }
  responses: Record<string, { content?: Record<string, { example?: unknown }> }>
}
const document = openApiDocument() as {
  info: Record<string, unknown>
  tags: { name: string; description: string }[]
  paths: Record<string, Record<string, Operation>>
}
const operations = Object.values(document.paths).flatMap((p) => Object.values(p))

describe('the OpenAPI document', () => {
  it('passes Redocly lint with no errors and no warnings', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'toolroom-openapi-'))
    const file = path.join(dir, 'openapi.json')
    fs.writeFileSync(file, JSON.stringify(document))
    const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' }
    const args = ['node_modules/@redocly/cli/bin/cli.js', 'lint', file, '--config', 'redocly.yaml', '--format', 'json']
    const { stdout } = await promisify(execFile)(process.execPath, args, { env, maxBuffer: 64 * 1024 * 1024 }).catch((e: { stdout: string }) => e)
    fs.rmSync(dir, { recursive: true, force: true })
    const report = JSON.parse(stdout) as {
      totals: { errors: number; warnings: number }
      problems: { ruleId: string; message: string; location: { pointer: string }[] }[]
    }
    const problems = report.problems.map((p) => `${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`)
    expect(problems).toEqual([])
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 })
  }, 120_000)

  it('describes every operation and gives it an example (of its body, its answer or a parameter)', () => {
    expect(operations).toHaveLength(ALL_CONTRACTS.length)
    for (const op of operations) {
      expect(op.description?.length ?? 0, `${op.operationId} has a description`).toBeGreaterThan(20)
      expect(op.description, op.operationId).not.toBe(op.summary)
      const examples = [
        ...Object.values(op.requestBody?.content ?? {}).map((m) => m.example),
        ...Object.values(op.responses).flatMap((r) => Object.values(r.content ?? {}).map((m) => m.example)),
        ...(op.parameters ?? []).map((p) => p.example),
      ].filter((e) => e !== undefined)
      const nothingToShow = !op.requestBody && !op.parameters?.length && Object.values(op.responses).every((r, i) => i > 0 || !r.content)
      if (!nothingToShow) expect(examples.length, `${op.operationId} has an example`).toBeGreaterThan(0)
    }
  })

  it('declares every tag it uses, with a description, and names a licence and a contact', () => {
    const declared = new Set(TAGS.map((t) => t.name))
    for (const op of operations) for (const tag of op.tags) expect(declared.has(tag), `${op.operationId}: tag ${tag}`).toBe(true)
    for (const tag of document.tags) expect(tag.description.length).toBeGreaterThan(10)
    expect(document.info.license).toMatchObject({ name: expect.any(String) })
    expect(document.info.contact).toMatchObject({ name: expect.any(String) })
  })

  it("types Apply's JSON body as manifests, not a string, and keeps YAML as text", () => {
    const apply = document.paths['/api/v1/apply'].post
    expect(apply.requestBody!.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/ApplyBody' })
    expect(apply.requestBody!.content['application/yaml'].schema).toEqual({ type: 'string' })
    const components = (document as unknown as { components: { schemas: Record<string, { oneOf?: unknown[]; anyOf?: unknown[] }> } }).components.schemas
    // The generator flattens the nested union: one manifest of each kind, an array of them, a List.
    const alternatives = components.ApplyBody.oneOf ?? components.ApplyBody.anyOf
    expect(alternatives).toContainEqual({ $ref: '#/components/schemas/ToolManifest' })
    expect(alternatives).toContainEqual({ $ref: '#/components/schemas/KubernetesSecretManifest' })
    expect(alternatives).toContainEqual(expect.objectContaining({ type: 'array', items: { $ref: '#/components/schemas/Manifest' } }))
    expect(alternatives).toContainEqual({ $ref: '#/components/schemas/ManifestList' })
    expect(alternatives!.every((a) => (a as { type?: string }).type !== 'string')).toBe(true)
    expect(components.ToolManifest).toBeDefined()
    expect(components.KubernetesSecretManifest).toBeDefined()
  })

  it('offers YAML answers where GET answers apply again', () => {
    for (const p of ['/api/v1/tools', '/api/v1/agents/{id}'])
      expect(Object.keys(document.paths[p].get.responses['200'].content!)).toEqual(['application/json', 'application/yaml'])
  })

  it('shows example manifests that Apply accepts', () => {
    for (const [kind, manifest] of Object.entries(EXAMPLE_MANIFESTS)) expect(validateDocument(manifest).errors, kind).toEqual([])
  })
})

describe('the CLI client types', () => {
  it(`are what the document generates (run npm run openapi:client when this fails)`, async () => {
    expect(
      fs.readFileSync(GENERATED_CLIENT_PATH, 'utf8') === (await generatedClientTypes()),
      `${GENERATED_CLIENT_PATH} is out of date: run npm run openapi:client`,
    ).toBe(true)
  }, 60_000)
})
