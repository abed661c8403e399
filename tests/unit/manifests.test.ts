import { describe, expect, it } from 'vitest'
import type { FieldError } from '@/lib/errors/app-error'
import { checkManifestRules, type IndexedDocument, type StoredRuleContext } from '@/lib/manifests/check-manifest-rules'
import { MAX_DOCUMENTS, parseManifest } from '@/lib/manifests/parse-manifest'
import { validateDocument } from '@/lib/manifests/validate-document'

// ---------- helpers ----------

const TR = 'toolroom.dev/v1alpha1'

/** The joch seed's Tool (seeds/001), verbatim. */
const JOCH_ZENDESK_TOOL = `apiVersion: joch.dev/v1alpha1
kind: Tool
metadata:
  name: zendesk.create_ticket
  namespace: support-platform
spec:
  type: rest

  description: Create a Zendesk support ticket on behalf of a customer.

  endpoint:
    method: POST
    url: https://example.zendesk.com/api/v2/tickets.json
    auth:
      type: bearer
      secretRef:
        name: zendesk-api-token

  inputSchema:
    type: object
    required: [subject, body]
    properties:
      subject:
        type: string
      body:
        type: string
      priority:
        type: string
        enum: [low, normal, high, urgent]

  outputSchema:
    type: object
    properties:
      ticketUrl: { type: string }
      ticketId:  { type: integer }

  sideEffects:
    level: external_write
    idempotent: false
    requiresApproval: true
    idempotencyKeyTemplate: "zendesk-{{ args.subject | hash }}"

  safety:
    allowedAgents:
      - support-triage
      - support-escalation
    deniedNamespaces:
      - sandbox
    rateLimit:
      callsPerMinute: 10
      callsPerDay: 500

  observability:
    logArgs: true
    logResult: true
    redactFields:
      - args.body
      - args.customer_email

status:
  phase: Ready
  totalCalls7d: 412
  failureRate7d: 0.014
`

/** The language-operator seed's LanguageTool (seeds/000), verbatim. */
const LANGOP_MEM0 = `apiVersion: langop.io/v1alpha1
kind: LanguageTool
metadata:
  name: mem0-memory
  namespace: language-operator-myapp
spec:
  image: myregistry/mem0-mcp:latest
  port: 8080
`

const toolDoc = (name: string, spec: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) => ({
  apiVersion: TR,
  kind: 'Tool',
  metadata: { name },
  spec: { type: 'function', description: 'Does a thing', inputSchema: { type: 'object' }, ...spec },
  ...extra,
})
const doc = (kind: string, name: string, spec: Record<string, unknown>, namespace?: string) => ({
  apiVersion: TR,
  kind,
  metadata: { name, ...(namespace ? { namespace } : {}) },
  spec,
})
const connector = (name: string, tools: string[], namespace?: string) => doc('Connector', name, { tools }, namespace)
const unit = (name: string, parent?: string, namespace?: string) => doc('Unit', name, parent ? { parent } : {}, namespace)

/** Errors of one document, reduced to what rules and clients look at. */
const brief = (errors: FieldError[]) => errors.map((e) => ({ document: e.document, field: e.field, rule: e.rule }))
const validate = (raw: unknown, index = 0) => validateDocument(raw, index)

/** Raw documents in, the indexed valid documents that checkManifestRules takes. */
function indexed(raws: unknown[]): IndexedDocument[] {
  return raws.map((raw, index) => {
    const { document, errors } = validateDocument(raw, index)
    if (!document) throw new Error(`document ${index} is invalid: ${JSON.stringify(errors)}`)
    return { index, document }
  })
}
const emptyStore = (): StoredRuleContext => ({ connectors: new Map(), unitParents: new Map(), toolsUnderSlug: new Map() })
const rules = (raws: unknown[], stored = emptyStore()) => checkManifestRules(indexed(raws), stored)

// ---------- parseManifest ----------

describe('parseManifest', () => {
  it('reads multi-document YAML', () => {
    const parsed = parseManifest('kind: A\nn: 1\n---\nkind: B\nlist: [x, y]\n')
    expect(parsed).toEqual({
      documents: [
        { kind: 'A', n: 1 },
        { kind: 'B', list: ['x', 'y'] },
      ],
      errors: [],
    })
  })

  it('ignores a leading document marker', () => {
    expect(parseManifest('---\nkind: A\n').documents).toEqual([{ kind: 'A' }])
  })

  it('does not count empty documents from a trailing or doubled "---"', () => {
    expect(parseManifest('kind: A\n---\n').documents).toEqual([{ kind: 'A' }])
    expect(parseManifest('kind: A\n---\n---\nkind: B\n').documents).toEqual([{ kind: 'A' }, { kind: 'B' }])
  })

  it('reads a JSON array, a Kubernetes List and a single JSON document', () => {
    expect(parseManifest('  [{"kind":"A"},{"kind":"B"}]').documents).toEqual([{ kind: 'A' }, { kind: 'B' }])
    expect(parseManifest('{"apiVersion":"v1","kind":"List","items":[{"kind":"A"},{"kind":"B"}]}').documents).toEqual([{ kind: 'A' }, { kind: 'B' }])
    expect(parseManifest('{"kind":"A"}').documents).toEqual([{ kind: 'A' }])
  })

  it('locates a JSON syntax error', () => {
    expect(brief(parseManifest('{"kind": ').errors)).toEqual([{ document: 0, field: '(document)', rule: 'json-syntax' }])
  })

  it('locates a YAML syntax error by document index and line, and returns no documents', () => {
    const parsed = parseManifest('kind: A\n---\nkind: [\n---\nkind: C\n')
    expect(parsed.documents).toEqual([])
    expect(brief(parsed.errors)).toEqual([{ document: 1, field: '(document)', rule: 'yaml-syntax' }])
    expect(parsed.errors[0].message).toMatch(/line \d+/)
  })

  it('refuses duplicate keys', () => {
    expect(brief(parseManifest('kind: A\nkind: B\n').errors)).toEqual([{ document: 0, field: '(document)', rule: 'yaml-syntax' }])
  })

  it('refuses a billion-laughs alias bomb', () => {
    const lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    const keys = 'abcdefghi'
    for (let i = 1; i < keys.length; i++)
      lines.push(
        `${keys[i]}: &${keys[i]} [${Array(9)
          .fill(`*${keys[i - 1]}`)
          .join(',')}]`,
      )
    const parsed = parseManifest(lines.join('\n'))
    expect(parsed.documents).toEqual([])
    expect(brief(parsed.errors)).toEqual([{ document: 0, field: '(document)', rule: 'yaml-syntax' }])
    expect(parsed.errors[0].message).toMatch(/alias/i)
  })

  it('still allows a few ordinary aliases', () => {
    expect(parseManifest('x: &x 1\ny: [*x, *x]\n').documents).toEqual([{ x: 1, y: [1, 1] }])
  })

  it.each([
    ['an empty text', ''],
    ['only whitespace', '  \n\n'],
    ['only a comment', '# nothing here\n'],
    ['only document markers', '---\n---\n'],
    ['an empty JSON array', '[]'],
    ['an empty List', '{"kind":"List","items":[]}'],
  ])('refuses %s as an empty manifest', (_what, text) => {
    expect(parseManifest(text)).toEqual({
      documents: [],
      errors: [{ field: '(manifest)', rule: 'required', message: 'the manifest holds no documents', line: 1, column: 1 }],
    })
  })

  it(`refuses more than ${MAX_DOCUMENTS} documents`, () => {
    const json = parseManifest(JSON.stringify(Array.from({ length: MAX_DOCUMENTS + 1 }, () => ({ kind: 'A' }))))
    expect(json.documents).toEqual([])
    expect(brief(json.errors)).toEqual([{ document: undefined, field: '(manifest)', rule: 'max-documents' }])
    const yaml = parseManifest(Array.from({ length: MAX_DOCUMENTS + 1 }, (_, i) => `n: ${i}`).join('\n---\n'))
    expect(brief(yaml.errors)).toEqual([{ document: undefined, field: '(manifest)', rule: 'max-documents' }])
    expect(parseManifest(JSON.stringify(Array.from({ length: MAX_DOCUMENTS }, () => ({ kind: 'A' })))).documents).toHaveLength(MAX_DOCUMENTS)
  })
})

// ---------- validateDocument ----------

describe('validateDocument', () => {
  it('accepts a minimal Tool, filling metadata defaults', () => {
    const { document, errors } = validate(toolDoc('acme.echo'))
    expect(errors).toEqual([])
    expect(document).toMatchObject({ kind: 'Tool', apiVersion: TR, metadata: { name: 'acme.echo', namespace: 'default', labels: {}, annotations: {} } })
  })

  it('refuses a document that is not an object', () => {
    expect(brief(validate(['kind', 'Tool'], 3).errors)).toEqual([{ document: 3, field: '(document)', rule: 'type' }])
  })

  it('refuses an unknown kind, naming the kind', () => {
    const { document, errors } = validate({ apiVersion: TR, kind: 'Widget', metadata: { name: 'w' }, spec: {} }, 2)
    expect(document).toBeUndefined()
    expect(brief(errors)).toEqual([{ document: 2, field: 'kind', rule: 'unknown-kind' }])
    expect(errors[0]).toMatchObject({ kind: 'Widget', name: 'w' })
  })

  it('requires kind and apiVersion', () => {
    expect(brief(validate({ metadata: { name: 'x' }, spec: {} }).errors)).toEqual([
      { document: 0, field: 'kind', rule: 'required' },
      { document: 0, field: 'apiVersion', rule: 'required' },
    ])
  })

  it.each([
    ['Tool', 'langop.io/v1alpha1'],
    ['Connector', 'joch.dev/v1alpha1'],
    ['Unit', 'toolroom.dev/v1'],
  ])('refuses %s served as %s', (kind, apiVersion) => {
    const errors = validate({ ...doc(kind, 'x', {}), apiVersion }, 1).errors
    expect(brief(errors)).toContainEqual({ document: 1, field: 'apiVersion', rule: 'api-version' })
  })

  it('a Unit in joch.dev/v1alpha1 is refused with what joch.dev does define (its seed documents define Tool and MCPServer; Toolroom adds Policy, which the joch Tool document promises)', () => {
    const [error] = validate({ ...doc('Unit', 'x', {}), apiVersion: 'joch.dev/v1alpha1' }, 0).errors
    expect(error).toMatchObject({ field: 'apiVersion', rule: 'api-version' })
    expect(error.message).toBe(
      'Unit is served as toolroom.dev/v1alpha1, not "joch.dev/v1alpha1" (joch.dev/v1alpha1 defines Tool, LanguageTool and Policy; use toolroom.dev/v1alpha1 for the other kinds)',
    )
    expect(
      validate({ ...doc('Tool', 'x.y', { type: 'function', description: 'd', inputSchema: { type: 'object' } }), apiVersion: 'joch.dev/v1alpha1' }).errors,
    ).toEqual([])
  })

  it('accepts the MCPServer alias of LanguageTool', () => {
    const { document, errors } = validate({
      apiVersion: 'joch.dev/v1alpha1',
      kind: 'MCPServer',
      metadata: { name: 'github' },
      spec: { endpoint: 'https://mcp.example.com/mcp' },
    })
    expect(errors).toEqual([])
    expect(document).toMatchObject({ kind: 'LanguageTool', spec: { port: 8080, deploymentMode: 'service', transport: 'streamable-http' } })
  })

  it('refuses unknown fields at the top level, in metadata and in spec', () => {
    const raw = {
      ...toolDoc('acme.echo', { retries: 3, sideEffects: { level: 'read_only', color: 'red' } }),
      extra: true,
      metadata: { name: 'acme.echo', selfLink: '/api/x' },
    }
    const errors = validate(raw, 4).errors
    expect(brief(errors)).toEqual(
      expect.arrayContaining([
        { document: 4, field: 'extra', rule: 'unknown-field' },
        { document: 4, field: 'metadata.selfLink', rule: 'unknown-field' },
        { document: 4, field: 'spec.retries', rule: 'unknown-field' },
        { document: 4, field: 'spec.sideEffects.color', rule: 'unknown-field' },
      ]),
    )
    expect(errors).toHaveLength(4)
    expect(errors[0]).toMatchObject({ kind: 'Tool', name: 'acme.echo' })
  })

  it.each(['Zendesk.CreateTicket', 'zendesk', 'zendesk.create-ticket', 'zendesk..create'])('refuses the non-canonical Tool name %j', (name) => {
    expect(brief(validate(toolDoc(name)).errors)).toEqual([{ document: 0, field: 'metadata.name', rule: 'canonical-id' }])
  })

  it('names the canonical-id rule for tool ids listed by a connector', () => {
    expect(brief(validate(doc('Connector', 'github', { tools: ['github.ok', 'GitHub.Bad'] })).errors)).toEqual([
      { document: 0, field: 'spec.tools[1]', rule: 'canonical-id' },
    ])
  })

  it('names the canonical-id rule for toggle keys', () => {
    // A toggle key is a tool id too (a refusal names the rule: docs/design/resource-model.md#apply-and-storage).
    expect(brief(validate(doc('Agent', 'bot', { toggles: { 'acme.ok': true, Bad: false } })).errors)).toEqual([
      { document: 0, field: 'spec.toggles.Bad', rule: 'canonical-id' },
    ])
  })

  it('refuses a bad enum value', () => {
    expect(brief(validate(toolDoc('acme.echo', { sideEffects: { level: 'dangerous' } })).errors)).toEqual([
      { document: 0, field: 'spec.sideEffects.level', rule: 'enum' },
    ])
    expect(brief(validate(toolDoc('acme.echo', { type: 'grpc' })).errors)).toEqual([{ document: 0, field: 'spec.type', rule: 'enum' }])
  })

  it.each([
    ['an unknown type', 'inputSchema', { type: 'objekt' }],
    ['a bad nested type', 'inputSchema', { type: 'object', properties: { a: { type: 12 } } }],
    ['a non-object root', 'inputSchema', { type: 'string' }],
    ['an unknown output type', 'outputSchema', { type: 'objekt' }],
  ])('refuses %s in %s', (_what, field, schema) => {
    const errors = validate(toolDoc('acme.echo', { [field]: schema })).errors
    expect(errors.length).toBeGreaterThan(0)
    for (const e of brief(errors)) expect(e).toEqual({ document: 0, field: `spec.${field}`, rule: 'json-schema' })
  })

  it('reports missing required fields', () => {
    expect(brief(validate({ apiVersion: TR, kind: 'Tool', metadata: {}, spec: { type: 'function', inputSchema: { type: 'object' } } }).errors)).toEqual([
      { document: 0, field: 'metadata.name', rule: 'required' },
      { document: 0, field: 'spec.description', rule: 'required' },
    ])
    expect(brief(validate({ apiVersion: TR, kind: 'Tool', metadata: { name: 'acme.echo' } }).errors)).toEqual([
      { document: 0, field: 'spec', rule: 'required' },
    ])
  })

  it.each([
    ['rest', 'endpoint'],
    ['mcp', 'mcpServerRef'],
    ['os', 'command'],
  ])('a %s Tool needs spec.%s', (type, field) => {
    expect(brief(validate(toolDoc('acme.echo', { type })).errors)).toEqual([{ document: 0, field: `spec.${field}`, rule: 'required' }])
  })

  it('refuses an endpoint on a non-rest Tool', () => {
    const errors = validate(toolDoc('acme.echo', { endpoint: { method: 'POST', url: 'https://x.example.com' } })).errors
    expect(brief(errors)).toEqual([{ document: 0, field: 'spec.endpoint', rule: 'not-allowed' }])
  })

  it('refuses a user name or password in any URL, without repeating it: it would be shown in every answer', () => {
    const cases: [unknown, string][] = [
      [doc('LanguageTool', 'crm', { endpoint: 'https://svc:hunter2-password@mcp.example.com/mcp' }), 'spec.endpoint'],
      [toolDoc('acme.echo', { type: 'rest', endpoint: { method: 'GET', url: 'https://admin:hunter2-password@api.example.com/echo' } }), 'spec.endpoint.url'],
      [doc('LanguageTool', 'crm2', { endpoint: 'https://token-only@mcp.example.com/mcp' }), 'spec.endpoint'],
    ]
    for (const [raw, field] of cases) {
      const errors = validate(raw).errors
      expect(brief(errors)).toContainEqual({ document: 0, field, rule: 'no-credentials' })
      expect(JSON.stringify(errors)).not.toContain('hunter2-password')
    }
    expect(validate(doc('LanguageTool', 'ok', { endpoint: 'https://mcp.example.com/mcp?team=a' })).errors).toEqual([])
  })

  it('leaves out the document index when none is given', () => {
    expect(validateDocument(toolDoc('Bad')).errors[0].document).toBeUndefined()
  })

  it('applies the joch seed Tool as written, ignoring its status', () => {
    const parsed = parseManifest(JOCH_ZENDESK_TOOL)
    expect(parsed.errors).toEqual([])
    const { document, errors } = validate(parsed.documents[0])
    expect(errors).toEqual([])
    expect(document).toMatchObject({
      kind: 'Tool',
      apiVersion: 'joch.dev/v1alpha1',
      metadata: { name: 'zendesk.create_ticket', namespace: 'support-platform' },
      spec: {
        type: 'rest',
        endpoint: { method: 'POST', auth: { type: 'bearer', secretRef: { name: 'zendesk-api-token' } } },
        sideEffects: { level: 'external_write', idempotent: false, requiresApproval: true, idempotencyKeyTemplate: 'zendesk-{{ args.subject | hash }}' },
        safety: { allowedAgents: ['support-triage', 'support-escalation'], deniedNamespaces: ['sandbox'], rateLimit: { callsPerMinute: 10, callsPerDay: 500 } },
        observability: { redactFields: ['args.body', 'args.customer_email'] },
      },
    })
    expect(document).not.toHaveProperty('status')
    expect(checkManifestRules([{ index: 0, document: document! }], emptyStore())).toEqual([])
  })

  it('applies the language-operator seed LanguageTool as written', () => {
    const parsed = parseManifest(LANGOP_MEM0)
    const { document, errors } = validate(parsed.documents[0])
    expect(errors).toEqual([])
    expect(document).toMatchObject({
      kind: 'LanguageTool',
      apiVersion: 'langop.io/v1alpha1',
      metadata: { name: 'mem0-memory', namespace: 'language-operator-myapp' },
      spec: { image: 'myregistry/mem0-mcp:latest', port: 8080, deploymentMode: 'service', transport: 'streamable-http' },
    })
  })
})

// ---------- checkManifestRules ----------

describe('checkManifestRules', () => {
  it('accepts a consistent manifest', () => {
    expect(
      rules([connector('github', ['github.create_issue']), toolDoc('github.create_issue'), unit('org'), unit('team', 'org'), toolDoc('acme.echo')]),
    ).toEqual([])
  })

  it('refuses a resource that appears twice, at the second occurrence', () => {
    const errors = rules([toolDoc('acme.echo'), toolDoc('acme.other'), toolDoc('acme.echo')])
    expect(brief(errors)).toEqual([{ document: 2, field: 'metadata.name', rule: 'duplicate' }])
    expect(errors[0]).toMatchObject({ kind: 'Tool', name: 'acme.echo' })
    expect(errors[0].message).toContain('first in document 0')
  })

  it('allows the same name in two namespaces, except for connector slugs', () => {
    expect(rules([unit('team', undefined, 'a'), unit('team', undefined, 'b')])).toEqual([])
    expect(brief(rules([connector('github', ['github.x'], 'a'), connector('github', ['github.x'], 'b')]))).toEqual([
      { document: 1, field: 'metadata.name', rule: 'duplicate' },
    ])
  })

  it('refuses Tools under toolroom.*', () => {
    const errors = rules([toolDoc('acme.echo'), toolDoc('toolroom.list_tools')])
    expect(brief(errors)).toEqual([{ document: 1, field: 'metadata.name', rule: 'reserved-namespace' }])
    expect(errors[0].message).toContain('toolroom.*')
  })

  it('refuses a connector named toolroom', () => {
    expect(brief(rules([connector('toolroom', ['toolroom.x'])]))).toEqual([{ document: 0, field: 'metadata.name', rule: 'reserved-namespace' }])
  })

  it("refuses a Tool under a connector slug unless that connector's spec.tools lists it", () => {
    const errors = rules([connector('github', ['github.create_issue']), toolDoc('github.create_issue'), toolDoc('github.delete_repo')])
    expect(brief(errors)).toEqual([{ document: 2, field: 'metadata.name', rule: 'reserved-namespace' }])
    expect(errors[0].message).toContain('connector "github"')
  })

  it('checks Tools against stored connectors too', () => {
    const stored: StoredRuleContext = {
      connectors: new Map([['jira', { namespace: 'default', tools: ['jira.create'] }]]),
      unitParents: new Map(),
      toolsUnderSlug: new Map(),
    }
    expect(brief(rules([toolDoc('jira.create'), toolDoc('jira.delete')], stored))).toEqual([
      { document: 1, field: 'metadata.name', rule: 'reserved-namespace' },
    ])
  })

  it('lets a connector in the manifest replace the stored tool list', () => {
    const stored: StoredRuleContext = {
      connectors: new Map([['jira', { namespace: 'default', tools: ['jira.create'] }]]),
      unitParents: new Map(),
      toolsUnderSlug: new Map(),
    }
    expect(brief(rules([connector('jira', ['jira.delete']), toolDoc('jira.create'), toolDoc('jira.delete')], stored))).toEqual([
      { document: 1, field: 'metadata.name', rule: 'reserved-namespace' },
    ])
  })

  it('refuses a Tool under a connector slug in another namespace than the connector', () => {
    const stored: StoredRuleContext = {
      connectors: new Map([['jira', { namespace: 'default', tools: ['jira.create'] }]]),
      unitParents: new Map(),
      toolsUnderSlug: new Map(),
    }
    const errors = rules([{ ...toolDoc('jira.create'), metadata: { name: 'jira.create', namespace: 'sandbox' } }], stored)
    expect(brief(errors)).toEqual([{ document: 0, field: 'metadata.name', rule: 'reserved-namespace' }])
    expect(errors[0].message).toContain('namespace "default"')
  })

  it('refuses a connector that would claim stored Tools it does not list', () => {
    const stored: StoredRuleContext = {
      connectors: new Map(),
      unitParents: new Map(),
      toolsUnderSlug: new Map([
        [
          'ops',
          [
            { namespace: 'default', name: 'ops.query' },
            { namespace: 'default', name: 'ops.restart' },
          ],
        ],
      ]),
    }
    const errors = rules([connector('ops', ['ops.query'])], stored)
    expect(brief(errors)).toEqual([{ document: 0, field: 'metadata.name', rule: 'reserved-namespace' }])
    expect(errors[0].message).toContain('default/ops.restart')
    expect(errors[0].message).not.toContain('default/ops.query')
    // listing all of them is fine
    expect(rules([connector('ops', ['ops.query', 'ops.restart'])], stored)).toEqual([])
  })

  it('refuses a connector listing a tool outside its slug', () => {
    const errors = rules([connector('github', ['github.create_issue', 'jira.create'])])
    expect(brief(errors)).toEqual([{ document: 0, field: 'spec.tools[1]', rule: 'reserved-namespace' }])
    expect(errors[0]).toMatchObject({ kind: 'Connector', name: 'github' })
  })

  it('refuses a connector slug taken in another namespace, but not an update in its own', () => {
    const stored: StoredRuleContext = {
      connectors: new Map([['github', { namespace: 'platform', tools: ['github.x'] }]]),
      unitParents: new Map(),
      toolsUnderSlug: new Map(),
    }
    const errors = rules([toolDoc('acme.echo'), connector('github', ['github.x'], 'team-a')], stored)
    expect(brief(errors)).toEqual([{ document: 1, field: 'metadata.name', rule: 'duplicate' }])
    expect(errors[0].message).toContain('"platform"')
    expect(rules([connector('github', ['github.x'], 'platform')], stored)).toEqual([])
  })

  it('refuses unit parent cycles within a manifest', () => {
    const errors = rules([unit('a', 'b'), unit('b', 'c'), unit('c', 'a')])
    expect(brief(errors)).toEqual([0, 1, 2].map((document) => ({ document, field: 'spec.parent', rule: 'cycle' })))
    expect(errors[0].message).toContain('a → b → c → a')
  })

  it('refuses a unit whose ancestry runs into a cycle it is not part of', () => {
    const errors = rules([unit('x', 'y'), unit('y', 'x'), unit('c', 'x')])
    expect(brief(errors)).toEqual([0, 1, 2].map((document) => ({ document, field: 'spec.parent', rule: 'cycle' })))
    expect(errors[2].message).toContain('c → x → y → x')
  })

  it('refuses a unit that is its own parent', () => {
    expect(brief(rules([unit('a', 'a')]))).toEqual([{ document: 0, field: 'spec.parent', rule: 'cycle' }])
  })

  it('refuses a cycle closed through stored units', () => {
    const stored: StoredRuleContext = {
      connectors: new Map(),
      unitParents: new Map([
        ['default/b', 'a'],
        ['default/c', null],
      ]),
      toolsUnderSlug: new Map(),
    }
    expect(brief(rules([unit('c'), unit('a', 'b')], stored))).toEqual([{ document: 1, field: 'spec.parent', rule: 'cycle' }])
  })

  it('lets a manifest break a stored cycle-to-be by re-parenting', () => {
    const stored: StoredRuleContext = { connectors: new Map(), unitParents: new Map([['default/b', 'a']]), toolsUnderSlug: new Map() }
    expect(rules([unit('b'), unit('a', 'b')], stored)).toEqual([])
  })

  it('does not follow parents into another namespace', () => {
    const stored: StoredRuleContext = { connectors: new Map(), unitParents: new Map([['other/b', 'a']]), toolsUnderSlug: new Map() }
    expect(rules([unit('a', 'b')], stored)).toEqual([])
  })
})
