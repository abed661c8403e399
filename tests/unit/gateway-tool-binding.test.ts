// How the gateway binds an effective entry to an executor and its logging rules
// (lib/gateway/tool-binding.ts), over a registry reader given as plain maps.
import { describe, expect, it } from 'vitest'
import type { ServerSurface } from '@/lib/effective-tools/registry-reader'
import type { EffectiveTool, PolicyDefaults, SourceRef } from '@/lib/effective-tools/types'
import { type BindingReader, bindingFor } from '@/lib/gateway/tool-binding'
import type { SideEffectLevel } from '@/lib/manifests/specs/common'
import type { ConnectorSpec } from '@/lib/manifests/specs/connector'
import type { LanguageToolSpec } from '@/lib/manifests/specs/language-tool'
import type { ToolSpec } from '@/lib/manifests/specs/tool'

interface Registry {
  tools?: Record<string, ToolSpec>
  servers?: Record<string, Partial<Omit<ServerSurface, 'spec'>> & { spec: Partial<LanguageToolSpec> }>
  connectors?: Record<string, { namespace: string; spec: ConnectorSpec }>
  policies?: Partial<Record<SideEffectLevel, PolicyDefaults>>
}

/** The reader's contract: a map of what exists among the refs asked for. */
function readerOf(r: Registry): BindingReader & { asked: string[] } {
  const asked: string[] = []
  const pick = <V>(all: Record<string, V>, refs: string[]) => {
    asked.push(...refs)
    return new Map(refs.filter((ref) => ref in all).map((ref) => [ref, all[ref]!]))
  }
  const servers = Object.fromEntries(
    Object.entries(r.servers ?? {}).map(([ref, s]) => {
      const [namespace, name] = ref.split('/') as [string, string]
      const spec: LanguageToolSpec = { deploymentMode: 'service', transport: 'streamable-http', port: 8080, ...s.spec }
      const surface: ServerSurface = {
        name,
        namespace,
        toolSchemas: [],
        phase: 'Ready',
        lastError: null,
        detectedTransport: null,
        detectedUrl: null,
        ...s,
        spec,
      }
      return [ref, surface]
    }),
  )
  return {
    asked,
    toolSpecs: async (refs) => pick(r.tools ?? {}, refs),
    servers: async (refs) => pick(servers, refs),
    connectors: async () => new Map(Object.entries(r.connectors ?? {})),
    policies: async () => new Map(Object.entries(r.policies ?? {}) as [SideEffectLevel, PolicyDefaults][]),
  }
}

function entry(name: string, source: SourceRef, over: Partial<EffectiveTool> = {}): EffectiveTool {
  return {
    name,
    namespace: source.namespace,
    toolNamespace: 'default',
    description: name,
    inputSchema: { type: 'object' },
    provenance: 'test',
    tier: 'explicit',
    inheritedFromUnit: null,
    source,
    type: 'function',
    sideEffects: { level: 'external_write', levelSource: 'declared', idempotent: false },
    requiresApproval: false,
    approvalSource: 'default',
    annotations: {},
    rateLimit: {},
    state: 'enabled',
    reason: null,
    totalCalls7d: 0,
    failureRate7d: null,
    ...over,
  } as EffectiveTool
}

const restSpec: ToolSpec = {
  type: 'rest',
  description: 'posts',
  endpoint: { url: 'https://api.example.com/things', method: 'POST' },
  inputSchema: { type: 'object' },
} as ToolSpec

describe('tool binding', () => {
  it('runs a REST Tool at its endpoint, with the Tool’s own logging rules over its level’s policy', async () => {
    const reader = readerOf({
      tools: {
        'team/post-thing': {
          ...restSpec,
          sideEffects: { idempotencyKeyTemplate: '{{args.id}}' },
          observability: { logResult: true, redactFields: ['args.token'] },
        },
      },
      policies: { external_write: { requiresApproval: false, logArgs: false, logResult: false } },
    })
    const binding = await bindingFor(entry('post-thing', { kind: 'Tool', name: 'post-thing', namespace: 'team' }), reader)
    expect(binding).toEqual({
      executor: { kind: 'rest', endpoint: restSpec.endpoint, namespace: 'team' },
      idempotencyKeyTemplate: '{{args.id}}',
      logArgs: false,
      logResult: true,
      redactFields: ['args.token'],
    })
    expect(reader.asked).toEqual(['team/post-thing'])
  })

  it('logs arguments and results unless a policy or the Tool says not to', async () => {
    const binding = await bindingFor(
      entry('post-thing', { kind: 'Tool', name: 'post-thing', namespace: null }),
      readerOf({ tools: { 'default/post-thing': restSpec } }),
    )
    expect(binding).toMatchObject({ logArgs: true, logResult: true, redactFields: [] })
    expect(binding.idempotencyKeyTemplate).toBeUndefined()
  })

  it('refuses a Tool that no longer exists, naming it', async () => {
    const binding = await bindingFor(
      entry('gone', { kind: 'Tool', name: 'gone', namespace: 'team' }),
      readerOf({ policies: { external_write: { requiresApproval: true, logArgs: false } } }),
    )
    expect(binding).toEqual({ executor: { kind: 'none', reason: 'Tool "team/gone" no longer exists' }, logArgs: false, logResult: true, redactFields: [] })
  })

  it('sends an mcp Tool to its server in the Tool’s namespace, under the upstream name it gives', async () => {
    const spec = { type: 'mcp', description: 'search', mcpServerRef: { name: 'search', tool: 'web_search' }, inputSchema: { type: 'object' } } as ToolSpec
    const reader = readerOf({ tools: { 'team/find': spec }, servers: { 'team/search': { spec: { endpoint: 'https://search.example.com/' } } } })
    const binding = await bindingFor(entry('find', { kind: 'Tool', name: 'find', namespace: 'team' }), reader)
    expect(binding.executor).toEqual({
      kind: 'mcp',
      upstreamName: 'web_search',
      target: {
        url: 'https://search.example.com/mcp',
        transport: 'streamable-http',
        namespace: 'team',
        name: 'search',
        endpoint: 'https://search.example.com/',
        authHeaders: [],
      },
    })
  })

  it('reaches a LanguageTool over the transport its discovery found, at the in-cluster address without an endpoint', async () => {
    const reader = readerOf({ servers: { 'tools/files': { spec: { port: 9000 }, detectedTransport: 'stateless-post', detectedUrl: null } } })
    const binding = await bindingFor(entry('files.read', { kind: 'LanguageTool', name: 'files', namespace: 'tools' }), reader)
    expect(binding.executor).toEqual({
      kind: 'mcp',
      upstreamName: 'read',
      target: {
        url: 'http://files.tools.svc.cluster.local:9000/mcp',
        transport: 'stateless-post',
        namespace: 'tools',
        name: 'files',
        endpoint: 'http://files.tools.svc.cluster.local:9000',
        authHeaders: [],
      },
    })
  })

  it('reaches a connector’s server through its reference, qualified in the connector’s namespace', async () => {
    const reader = readerOf({
      connectors: { github: { namespace: 'integrations', spec: { languageTool: 'github-mcp' } } },
      servers: {
        'integrations/github-mcp': {
          spec: { endpoint: 'https://gh.example.com/mcp', authHeaders: [{ name: 'Authorization', secretRef: { name: 'gh-token' } }] },
        },
      },
    })
    const binding = await bindingFor(
      entry('github.create_issue', { kind: 'Connector', name: 'github', namespace: 'integrations' }, { upstreamName: 'create_issue' }),
      reader,
    )
    expect(binding.executor).toMatchObject({
      kind: 'mcp',
      upstreamName: 'create_issue',
      target: { namespace: 'integrations', authHeaders: [{ name: 'Authorization', secretRef: { name: 'gh-token' } }] },
    })
    expect(reader.asked).toEqual(['integrations/github-mcp'])
  })

  it('says which server is missing when a connector or LanguageTool has none', async () => {
    const noServer = readerOf({ connectors: { github: { namespace: 'default', spec: { tools: ['github.x'] } } } })
    expect((await bindingFor(entry('github.x', { kind: 'Connector', name: 'github', namespace: 'default' }), noServer)).executor).toEqual({
      kind: 'none',
      reason: 'the MCP server of connector "github" does not exist',
    })
    expect((await bindingFor(entry('files.read', { kind: 'LanguageTool', name: 'files', namespace: 'tools' }), readerOf({}))).executor).toEqual({
      kind: 'none',
      reason: 'LanguageTool "tools/files" does not exist',
    })
  })

  it('never runs the agent’s own image and function tools, and runs platform tools itself without reading the registry', async () => {
    const image = await bindingFor(entry('scan', { kind: 'Agent', name: 'bot', namespace: 'default' }), readerOf({}))
    expect(image.executor).toMatchObject({ kind: 'none', reason: expect.stringContaining('POST /api/v1/calls/ingest') })
    const fn = await bindingFor(
      entry('calc', { kind: 'Tool', name: 'calc', namespace: 'default' }),
      readerOf({ tools: { 'default/calc': { type: 'function', description: 'calc', inputSchema: { type: 'object' } } as ToolSpec } }),
    )
    expect(fn.executor).toMatchObject({ kind: 'none', reason: expect.stringContaining('function tool') })
    const reader = readerOf({})
    expect(
      (await bindingFor(entry('toolroom.approval_status', { kind: 'Platform', name: 'toolroom', namespace: null }, { tier: 'platform' }), reader)).executor,
    ).toEqual({ kind: 'platform' })
    expect(reader.asked).toEqual([])
  })

  it('is worked out once per reader and entry, and again for a new reader (a registry change) or a new entry', async () => {
    const registry: Registry = { servers: { 'tools/files': { spec: { port: 9000 } } } }
    const reader = readerOf(registry)
    const files = entry('files.read', { kind: 'LanguageTool', name: 'files', namespace: 'tools' })
    const first = await bindingFor(files, reader)
    expect(await bindingFor(files, reader)).toBe(first)
    expect(reader.asked).toEqual(['tools/files'])
    // A new epoch brings a new reader: what it reads now, not what the old one did.
    const moved = readerOf({ servers: { 'tools/files': { spec: { port: 9001 } } } })
    const again = await bindingFor(files, moved)
    expect(again.executor).toMatchObject({ kind: 'mcp', target: { url: 'http://files.tools.svc.cluster.local:9001/mcp' } })
    expect(moved.asked).toEqual(['tools/files'])
    // An entry of a new effective set is bound anew under the same reader.
    expect(await bindingFor({ ...files }, reader)).not.toBe(first)
    expect(reader.asked).toEqual(['tools/files', 'tools/files'])
  })

  it('is not kept when it failed: the next call reads again', async () => {
    let fail = true
    const reader: BindingReader = {
      ...readerOf({}),
      policies: async () => {
        if (fail) throw new Error('database unavailable')
        return new Map()
      },
    }
    const files = entry('files.read', { kind: 'LanguageTool', name: 'files', namespace: 'tools' })
    await expect(bindingFor(files, reader)).rejects.toThrow('database unavailable')
    fail = false
    expect((await bindingFor(files, reader)).executor).toMatchObject({ kind: 'none' })
  })
})
