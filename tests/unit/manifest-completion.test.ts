// The Apply editor's completion, from the JSON Schemas made of the zod schemas Apply validates with:
// top-level keys, kinds and apiVersions, spec keys of the document's kind at any depth (lists of
// objects included), enum and boolean values, keys already written left out; and never a throw,
// whatever the text and cursor.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { completeManifest } from '@/lib/client/manifest-completion'
import { manifestKindSchemas } from '@/lib/manifests/manifest-json-schemas'

const kinds = manifestKindSchemas()

/** Completions where `|` marks the cursor. */
function at(textWithCursor: string) {
  const offset = textWithCursor.indexOf('|')
  const text = textWithCursor.replace('|', '')
  const answer = completeManifest(text, offset, kinds)
  return answer && { from: answer.from, labels: answer.items.map((i) => i.label), items: answer.items }
}

describe('manifest completion', () => {
  it('offers the top-level fields, then kinds and the apiVersions of the kind', () => {
    expect(at('|')?.labels).toEqual(['apiVersion', 'kind', 'metadata', 'spec'])
    expect(at('kind: Tool\n|')?.labels).toEqual(['apiVersion', 'metadata', 'spec'])
    expect(at('kind: |')?.labels).toEqual([
      'Tool',
      'LanguageTool',
      'Connector',
      'Unit',
      'Agent',
      'Secret',
      'SideEffectPolicy',
      'Policy',
      'IdentityProvider',
      'MCPServer',
    ])
    expect(at('kind: Ag|')).toEqual(expect.objectContaining({ from: 6, labels: ['Agent'] }))
    expect(at('kind: Connector\napiVersion: |')?.labels).toEqual(['toolroom.dev/v1alpha1'])
    expect(at('apiVersion: |\nkind: Tool')?.labels).toEqual(['toolroom.dev/v1alpha1', 'joch.dev/v1alpha1'])
  })

  it("offers the spec fields of the document's kind, marking the required ones", () => {
    const tool = at('apiVersion: joch.dev/v1alpha1\nkind: Tool\nmetadata:\n  name: a.b\nspec:\n  |')
    expect(tool?.labels).toEqual(expect.arrayContaining(['type', 'description', 'endpoint', 'inputSchema', 'sideEffects', 'safety', 'observability']))
    expect(tool?.items.find((i) => i.label === 'type')).toMatchObject({ apply: 'type: ', detail: '"function" | "rest" | "mcp" | "os", required' })
    expect(at('kind: Agent\nspec:\n  gr|')?.labels).toEqual(['grants'])
    expect(at('kind: Agent\nmetadata:\n  |')?.labels).toEqual(['name', 'namespace', 'labels', 'annotations'])
  })

  it('leaves out keys already written above or below, and follows nesting and lists of objects', () => {
    expect(at('kind: Tool\nspec:\n  type: rest\n  |\n  description: d\n')?.labels).not.toEqual(expect.arrayContaining(['type', 'description']))
    expect(at('kind: Tool\nspec:\n  endpoint:\n    method: GET\n    |')?.labels).toEqual(['url', 'auth', 'timeoutMs'])
    expect(at('kind: Tool\nspec:\n  endpoint:\n    auth:\n      |')?.labels).toEqual(['type', 'secretRef', 'header', 'oauth2'])
    const headers = 'kind: LanguageTool\nspec:\n  authHeaders:\n    - name: x-key\n      |'
    expect(at(headers)?.labels).toEqual(['secretRef'])
    expect(at('kind: LanguageTool\nspec:\n  authHeaders:\n  - |')?.labels).toEqual(['name', 'secretRef'])
    expect(at('kind: LanguageTool\nspec:\n  authHeaders:\n    - name: a\n      secretRef:\n        |')?.labels).toEqual(['name', 'key'])
  })

  it('offers enum and boolean values, in lists too', () => {
    expect(at('kind: Tool\nspec:\n  type: r|')).toEqual(expect.objectContaining({ labels: ['rest'] }))
    expect(at('kind: Tool\nspec:\n  sideEffects:\n    level: |')?.labels).toEqual([
      'read_only',
      'local_write',
      'external_write',
      'financial',
      'communication',
      'code_execution',
      'privileged',
    ])
    expect(at('kind: Tool\nspec:\n  sideEffects:\n    requiresApproval: |')?.labels).toEqual(['true', 'false'])
    expect(at('kind: LanguageTool\nspec:\n  transport: |')?.labels).toEqual(['streamable-http', 'sse'])
  })

  it('answers per document of a multi-document manifest', () => {
    const text = 'kind: Agent\nspec:\n  grants: [a.b]\n---\nkind: Tool\nspec:\n  |'
    expect(at(text)?.labels).toContain('inputSchema')
    expect(at(text)?.labels).not.toContain('grants')
  })

  it('offers nothing inside free text, flow collections or unknown places', () => {
    expect(at('kind: Tool\nspec:\n  description: some wo|')).toBeNull()
    expect(at('kind: Tool\nspec: { ty|')).toBeNull()
    expect(at('kind: Nope\nspec:\n  |')).toBeNull()
    expect(at('kind: Tool\nspec:\n  inputSchema:\n    properties:\n      |')).toBeNull()
  })

  it('never throws, for any text and cursor', () => {
    const yamlish = fc
      .array(
        fc.oneof(
          fc.constantFrom('kind: Tool', 'spec:', '  endpoint:', '    - name: x', '  - ', '---', '  type: ', '"q": ', '- - - a:', '#x', ''),
          fc.string({ maxLength: 12 }),
        ),
        { maxLength: 12 },
      )
      .map((l) => l.join('\n'))
    fc.assert(
      fc.property(yamlish, fc.nat(), (text, n) => {
        const offset = text.length === 0 ? 0 : n % (text.length + 1)
        const answer = completeManifest(text, offset, kinds)
        if (answer) {
          expect(answer.from).toBeGreaterThanOrEqual(0)
          expect(answer.from).toBeLessThanOrEqual(offset)
        }
      }),
      { numRuns: 500 },
    )
  })
})
