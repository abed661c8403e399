import { describe, expect, it } from 'vitest'
import { catalogToolFromRow, catalogToolsFromImage, catalogToolsFromMcp, type DiscoveredMcpTool } from '@/lib/effective-tools/catalog-tools'
import {
  annotationsForLevel,
  annotationsFromMcpHints,
  levelFromAnnotations,
  type McpToolAnnotations,
  UNDECLARED_LEVEL,
} from '@/lib/effective-tools/derive-side-effects'

const CONSERVATIVE = { readOnly: false, destructive: true, idempotent: false, openWorld: true }
const derive = (hints: McpToolAnnotations | undefined) => {
  const annotations = annotationsFromMcpHints(hints)
  return { annotations, ...levelFromAnnotations(annotations, hints) }
}

describe('MCP hints, read with the MCP defaults', () => {
  it.each([
    ['no annotations at all', undefined],
    ['an empty annotations object', {}],
    ['only a title', { title: 'Create issue' }],
  ])('treats %s as not read-only, destructive, open world', (_what, hints) => {
    expect(derive(hints)).toEqual({ annotations: CONSERVATIVE, level: 'external_write', levelSource: 'default' })
  })

  it('only an explicit readOnlyHint: true makes a tool read-only (not destructive, idempotent)', () => {
    expect(derive({ readOnlyHint: true })).toEqual({
      annotations: { readOnly: true, destructive: false, idempotent: true, openWorld: true },
      level: 'read_only',
      levelSource: 'annotations',
    })
    expect(derive({ readOnlyHint: false }).annotations.readOnly).toBe(false)
  })

  it('a read-only tool is never destructive, whatever destructiveHint says', () => {
    expect(derive({ readOnlyHint: true, destructiveHint: true }).annotations.destructive).toBe(false)
  })

  it('is destructive unless destructiveHint is explicitly false', () => {
    expect(derive({ readOnlyHint: false }).annotations.destructive).toBe(true)
    expect(derive({ destructiveHint: true }).annotations.destructive).toBe(true)
    expect(derive({ destructiveHint: false }).annotations.destructive).toBe(false)
  })

  it('is open world unless openWorldHint is explicitly false', () => {
    expect(derive({ readOnlyHint: false, destructiveHint: false }).annotations.openWorld).toBe(true)
    expect(derive({ openWorldHint: true }).annotations.openWorld).toBe(true)
    expect(derive({ openWorldHint: false }).annotations.openWorld).toBe(false)
  })

  it('is idempotent only with idempotentHint: true (or when read-only)', () => {
    expect(derive({ destructiveHint: false }).annotations.idempotent).toBe(false)
    expect(derive({ idempotentHint: true }).annotations.idempotent).toBe(true)
    expect(derive({ idempotentHint: false, readOnlyHint: true }).annotations.idempotent).toBe(true)
  })

  it('derives local_write for a closed-world writer', () => {
    expect(derive({ openWorldHint: false })).toMatchObject({ level: 'local_write', levelSource: 'annotations' })
    expect(derive({ readOnlyHint: false, destructiveHint: false, openWorldHint: false })).toMatchObject({ level: 'local_write', levelSource: 'annotations' })
  })

  it('derives external_write from explicit hints that allow writes to the world', () => {
    expect(derive({ readOnlyHint: false })).toMatchObject({ level: 'external_write', levelSource: 'annotations' })
    expect(derive({ destructiveHint: false })).toMatchObject({ level: 'external_write', levelSource: 'annotations' })
    expect(derive({ openWorldHint: true })).toMatchObject({ level: 'external_write', levelSource: 'annotations' })
  })

  it('does not count idempotentHint alone as a level-bearing hint', () => {
    expect(derive({ idempotentHint: true })).toMatchObject({ level: 'external_write', levelSource: 'default' })
  })
})

describe('annotations implied by a declared level', () => {
  it('treats an undeclared level conservatively', () => {
    expect(UNDECLARED_LEVEL).toBe('external_write')
    expect(annotationsForLevel(undefined, undefined)).toEqual(CONSERVATIVE)
  })

  it.each([
    ['read_only', undefined, { readOnly: true, destructive: false, idempotent: true, openWorld: true }],
    ['read_only', false, { readOnly: true, destructive: false, idempotent: true, openWorld: true }],
    ['local_write', undefined, { readOnly: false, destructive: true, idempotent: false, openWorld: false }],
    ['external_write', true, { readOnly: false, destructive: true, idempotent: true, openWorld: true }],
    ['financial', false, { readOnly: false, destructive: true, idempotent: false, openWorld: true }],
    ['privileged', undefined, { readOnly: false, destructive: true, idempotent: false, openWorld: true }],
  ] as const)('%s (idempotent %s)', (level, idempotent, expected) => {
    expect(annotationsForLevel(level, idempotent)).toEqual(expected)
  })
})

describe('catalogToolsFromMcp', () => {
  const server = { name: 'github', namespace: 'tools' }
  const source = { kind: 'LanguageTool' as const, name: 'github', namespace: 'tools' }
  const discovered: DiscoveredMcpTool[] = [
    { name: 'create-issue', description: 'Create an issue', inputSchema: { type: 'object', properties: { title: { type: 'string' } } } },
    { name: 'listRepos', title: 'List repositories', annotations: { readOnlyHint: true } },
    { name: '---' },
    { name: 'Search Docs', outputSchema: { type: 'object' }, annotations: { openWorldHint: false } },
  ]

  it('gives canonical ids under the prefix, keeps the upstream name and drops names with no canonical form', () => {
    const tools = catalogToolsFromMcp('github', server, discovered, source)
    expect(tools.map((t) => [t.name, t.upstreamName])).toEqual([
      ['github.create_issue', 'create-issue'],
      ['github.list_repos', 'listRepos'],
      ['github.search_docs', 'Search Docs'],
    ])
  })

  it('canonicalises a hyphenated server name as the prefix', () => {
    const tools = catalogToolsFromMcp('mem0-memory', { name: 'mem0-memory', namespace: 'language-operator-myapp' }, [{ name: 'remember' }], source)
    expect(tools).toMatchObject([{ name: 'mem0_memory.remember', upstreamName: 'remember', namespace: 'language-operator-myapp' }])
  })

  it('fills each entry from the discovered schema, conservatively', () => {
    const [create, list, search] = catalogToolsFromMcp('github', server, discovered, source)
    expect(create).toEqual({
      name: 'github.create_issue',
      namespace: 'tools',
      description: 'Create an issue',
      inputSchema: { type: 'object', properties: { title: { type: 'string' } } },
      type: 'mcp',
      level: 'external_write',
      levelSource: 'default',
      annotations: CONSERVATIVE,
      upstreamName: 'create-issue',
      source,
      stats: { totalCalls7d: 0, failureRate7d: null },
    })
    expect(list).toMatchObject({ description: 'List repositories', inputSchema: { type: 'object' }, level: 'read_only', levelSource: 'annotations' })
    expect(list.annotations.readOnly).toBe(true)
    expect(search).toMatchObject({ description: '', outputSchema: { type: 'object' }, level: 'local_write', levelSource: 'annotations' })
  })

  it('gives nothing for a prefix with no canonical form', () => {
    expect(catalogToolsFromMcp('---', server, discovered, source)).toEqual([])
  })
})

describe('conservative defaults for Tools and image tools', () => {
  const row = (spec: object) => ({
    name: 'acme.do',
    namespace: 'default',
    spec: { type: 'function', description: 'Do', inputSchema: { type: 'object' }, ...spec },
    totalCalls7d: 3,
    failureRate7d: 0.5,
  })

  it('a Tool with no declared level is governed as external_write, destructive and open world', () => {
    const tool = catalogToolFromRow(row({}))
    expect(tool).toMatchObject({ level: 'external_write', levelSource: 'default', annotations: CONSERVATIVE, stats: { totalCalls7d: 3, failureRate7d: 0.5 } })
    expect(tool.requiresApproval).toBeUndefined()
  })

  it('a Tool with a declared level keeps it and its overrides', () => {
    const tool = catalogToolFromRow(
      row({
        type: 'mcp',
        mcpServerRef: { name: 'github', tool: 'create-issue' },
        sideEffects: { level: 'read_only', requiresApproval: false },
        safety: { rateLimit: { callsPerMinute: 5 } },
      }),
    )
    expect(tool).toMatchObject({
      level: 'read_only',
      levelSource: 'declared',
      requiresApproval: false,
      rateLimit: { callsPerMinute: 5 },
      upstreamName: 'create-issue',
      allowedAgents: [],
      deniedNamespaces: [],
    })
    expect(tool.annotations).toEqual({ readOnly: true, destructive: false, idempotent: true, openWorld: true })
  })

  it('image tools carry no level: conservative defaults', () => {
    const [tool] = catalogToolsFromImage({ kind: 'Agent', name: 'bot', namespace: 'ops' }, [
      { name: 'acme.local', description: 'Local', inputSchema: { type: 'object' } },
    ])
    expect(tool).toMatchObject({
      name: 'acme.local',
      namespace: 'ops',
      level: 'external_write',
      levelSource: 'default',
      annotations: CONSERVATIVE,
      source: { kind: 'Agent', name: 'bot', namespace: 'ops' },
    })
  })
})
