import { describe, expect, it } from 'vitest'
import { catalogToolsFromMcp } from '@/lib/effective-tools/catalog-tools'
import { annotationsForLevel } from '@/lib/effective-tools/derive-side-effects'
import { PLATFORM_TOOLS } from '@/lib/effective-tools/platform-tools'
import { resolveEffectiveTools } from '@/lib/effective-tools/resolve-effective-tools'
import type { CatalogTool, EffectiveTool, EffectiveToolSet, PolicyDefaults, ResolverInput, SubjectNode } from '@/lib/effective-tools/types'
import type { SideEffectLevel } from '@/lib/manifests/specs/common'
import { catalogTool } from '../support/catalog-tool'

// ---------- helpers ----------

const imageTool = (name: string) =>
  catalogTool({
    name,
    type: 'function',
    level: 'external_write',
    levelSource: 'default',
    annotations: annotationsForLevel(undefined, undefined),
    source: { kind: 'Agent', name: 'bot', namespace: 'default' },
  })

const mcpTools = (server: string, upstream: string[], namespace = 'default') =>
  catalogToolsFromMcp(
    server,
    { name: server, namespace },
    upstream.map((name) => ({ name, description: `${name} upstream` })),
    { kind: 'LanguageTool', name: server, namespace },
  )

interface Setup {
  subject?: Partial<ResolverInput['subject']>
  ancestors?: SubjectNode[]
  platformTools?: CatalogTool[]
  connectorTools?: Record<string, CatalogTool[]>
  languageToolTools?: Record<string, CatalogTool[]>
  /** Keyed by the qualified reference `namespace/name`, as the loader does. */
  grantedTools?: Record<string, CatalogTool>
  /** Defaults to the keys of connectorTools. */
  connectorSlugs?: string[]
  policies?: Partial<Record<SideEffectLevel, PolicyDefaults>>
}

function resolverInput(s: Setup = {}): ResolverInput {
  const connectorTools = new Map(Object.entries(s.connectorTools ?? {}))
  return {
    subject: { kind: 'Agent', name: 'bot', namespace: 'default', imageTools: [], imageDigest: 'sha256:abc', ...s.subject },
    ancestors: s.ancestors ?? [],
    platformTools: s.platformTools ?? [],
    connectorTools,
    languageToolTools: new Map(Object.entries(s.languageToolTools ?? {})),
    grantedTools: new Map(Object.entries(s.grantedTools ?? {})),
    connectorSlugs: new Set(s.connectorSlugs ?? connectorTools.keys()),
    policies: new Map(Object.entries(s.policies ?? {}) as [SideEffectLevel, PolicyDefaults][]),
  }
}

const resolve = (s: Setup = {}) => resolveEffectiveTools(resolverInput(s))
const all = (set: EffectiveToolSet) => [...set.tools, ...set.excluded]
const summary = (entries: EffectiveTool[]) => entries.map((e) => `${e.name} ${e.provenance} ${e.state}`)
function only(set: EffectiveToolSet, name: string, provenance?: string): EffectiveTool {
  const hits = all(set).filter((e) => e.name === name && (provenance === undefined || e.provenance === provenance))
  expect(hits, `exactly one ${name} ${provenance ?? ''}`).toHaveLength(1)
  return hits[0]
}

const echo = catalogTool({ name: 'acme.echo' })
const github = [catalogTool({ name: 'github.create_issue', level: 'external_write' }), catalogTool({ name: 'github.list_repos' })]

// ---------- tiers and provenance ----------

describe('tiers and provenance', () => {
  it('offers the platform tools with provenance "platform"', () => {
    const set = resolve({ platformTools: [...PLATFORM_TOOLS] })
    expect(set.tools.map((t) => t.name)).toEqual([
      'toolroom.list_servers',
      'toolroom.list_tools',
      'toolroom.inspect_tool',
      'toolroom.call_tool',
      'toolroom.approval_status',
    ])
    for (const t of set.tools) {
      expect(t).toMatchObject({
        provenance: 'platform',
        tier: 'platform',
        inheritedFromUnit: null,
        namespace: null,
        toolNamespace: 'toolroom',
        state: 'enabled',
        reason: null,
      })
      expect(t.source.kind).toBe('Platform')
    }
    expect(set.excluded).toEqual([])
    expect(set.unresolved).toEqual([])
  })

  it('offers the tools of a bound connector as connector:<slug>', () => {
    const set = resolve({ subject: { connectors: ['github'] }, connectorTools: { github } })
    expect(summary(set.tools)).toEqual(['github.create_issue connector:github enabled', 'github.list_repos connector:github enabled'])
    expect(set.tools[0]).toMatchObject({ tier: 'connector', inheritedFromUnit: null, toolNamespace: 'github' })
  })

  it('does not offer the tools of an unbound connector', () => {
    expect(resolve({ connectorTools: { github } }).tools).toEqual([])
  })

  it('offers image tools as image:<digest>', () => {
    const set = resolve({ subject: { imageTools: [imageTool('acme.local_search')], imageDigest: 'sha256:0123abcd' } })
    expect(set.tools).toHaveLength(1)
    expect(set.tools[0]).toMatchObject({
      name: 'acme.local_search',
      provenance: 'image:sha256:0123abcd',
      tier: 'image',
      inheritedFromUnit: null,
      state: 'enabled',
    })
  })

  it('offers the tools of referenced LanguageTools as mcp:<server>, keeping the upstream name', () => {
    const set = resolve({
      subject: { languageTools: ['mem0-memory', 'shared/search-docs'] },
      languageToolTools: { 'mem0-memory': mcpTools('mem0-memory', ['remember']), 'shared/search-docs': mcpTools('search-docs', ['searchDocs'], 'shared') },
    })
    expect(summary(set.tools)).toEqual(['mem0_memory.remember mcp:mem0-memory enabled', 'search_docs.search_docs mcp:search-docs enabled'])
    expect(set.tools[0]).toMatchObject({ tier: 'mcp', upstreamName: 'remember', type: 'mcp', inheritedFromUnit: null })
    expect(set.tools[1]).toMatchObject({ upstreamName: 'searchDocs', namespace: 'shared' })
  })

  it('offers explicitly granted Tools as grant, resolving bare names in the referrer namespace', () => {
    const other = catalogTool({ name: 'acme.other', namespace: 'shared' })
    const set = resolve({ subject: { grants: ['acme.echo', 'shared/acme.other'] }, grantedTools: { 'default/acme.echo': echo, 'shared/acme.other': other } })
    expect(summary(set.tools)).toEqual(['acme.echo grant enabled', 'acme.other grant enabled'])
    expect(set.tools[1]).toMatchObject({ tier: 'grant', namespace: 'shared', inheritedFromUnit: null })
  })

  it('orders entries by tier (platform, connector, image, mcp, grant), then declaration order', () => {
    const set = resolve({
      platformTools: [catalogTool({ name: 'toolroom.b' }), catalogTool({ name: 'toolroom.a' })],
      subject: { connectors: ['zeta', 'alpha'], imageTools: [imageTool('img.z'), imageTool('img.a')], languageTools: ['srv'], grants: ['g.z', 'g.a'] },
      connectorTools: { alpha: [catalogTool({ name: 'alpha.x' })], zeta: [catalogTool({ name: 'zeta.y' }), catalogTool({ name: 'zeta.b' })] },
      languageToolTools: { srv: mcpTools('srv', ['b', 'a']) },
      grantedTools: { 'default/g.a': catalogTool({ name: 'g.a' }), 'default/g.z': catalogTool({ name: 'g.z' }) },
    })
    expect(set.tools.map((t) => `${t.tier}:${t.name}`)).toEqual([
      'platform:toolroom.b',
      'platform:toolroom.a',
      'connector:zeta.y',
      'connector:zeta.b',
      'connector:alpha.x',
      'image:img.z',
      'image:img.a',
      'mcp:srv.b',
      'mcp:srv.a',
      'grant:g.z',
      'grant:g.a',
    ])
  })
})

// ---------- precedence ----------

describe('precedence on name collisions', () => {
  const name = 'acme.search'
  const everywhere: Setup = {
    platformTools: [catalogTool({ name, namespace: null })],
    subject: { connectors: ['conn'], imageTools: [imageTool(name)], languageTools: ['srv'], grants: [name] },
    connectorTools: { conn: [catalogTool({ name })] },
    languageToolTools: { srv: [catalogTool({ name, type: 'mcp' })] },
    grantedTools: { [`default/${name}`]: catalogTool({ name }) },
  }

  it('lets the grant win over every other tier; the others stay visible as shadowed', () => {
    const set = resolve(everywhere)
    expect(summary(set.tools)).toEqual(['acme.search grant enabled'])
    expect(summary(set.excluded)).toEqual([
      'acme.search platform shadowed',
      'acme.search connector:conn shadowed',
      'acme.search image:sha256:abc shadowed',
      'acme.search mcp:srv shadowed',
    ])
    for (const e of set.excluded) {
      expect(e.shadowedBy).toBe('grant')
      expect(e.reason).toMatch(/shadowed by grant/)
    }
  })

  it.each([
    ['connector', 'platform', { ...everywhere, subject: { ...everywhere.subject, grants: [] } }, 'connector:conn'],
    ['platform', 'mcp', { ...everywhere, subject: { ...everywhere.subject, grants: [], connectors: [] } }, 'platform'],
    ['mcp', 'image', { ...everywhere, platformTools: [], subject: { ...everywhere.subject, grants: [], connectors: [] } }, 'mcp:srv'],
  ] as [string, string, Setup, string][])('%s beats %s', (_winnerTier, loserTier, setup, winner) => {
    const set = resolve(setup)
    expect(set.tools.map((t) => t.provenance)).toEqual([winner])
    const loser = set.excluded.find((e) => e.tier === loserTier)!
    expect(loser).toMatchObject({ state: 'shadowed', shadowedBy: winner })
    expect(loser.reason).toContain(`shadowed by ${winner}`)
    expect(set.excluded.every((e) => e.state === 'shadowed' && e.shadowedBy === winner)).toBe(true)
  })

  it('platform beats image', () => {
    const set = resolve({ platformTools: [catalogTool({ name, namespace: null })], subject: { imageTools: [imageTool(name)] } })
    expect(summary(set.tools)).toEqual(['acme.search platform enabled'])
    expect(set.excluded[0]).toMatchObject({ tier: 'image', state: 'shadowed', shadowedBy: 'platform' })
  })

  it('within one tier the first declared wins', () => {
    const set = resolve({ subject: { connectors: ['b', 'a'] }, connectorTools: { a: [catalogTool({ name })], b: [catalogTool({ name })] } })
    expect(summary(set.tools)).toEqual(['acme.search connector:b enabled'])
    expect(set.excluded[0]).toMatchObject({ provenance: 'connector:a', state: 'shadowed', shadowedBy: 'connector:b' })
  })

  it('names the unit of an inherited winner in the reason', () => {
    const set = resolve({
      ancestors: [{ name: 'team', namespace: 'default', grants: [name] }],
      subject: { imageTools: [imageTool(name)] },
      grantedTools: { [`default/${name}`]: catalogTool({ name }) },
    })
    expect(set.excluded[0].reason).toBe('shadowed by grant (inherited from unit "team"), which takes precedence')
  })
})

// ---------- inheritance ----------

describe('inheritance from ancestor units', () => {
  const team = (over: Partial<SubjectNode> = {}): SubjectNode => ({ name: 'team', namespace: 'default', ...over })
  const org = (over: Partial<SubjectNode> = {}): SubjectNode => ({ name: 'org', namespace: 'default', ...over })

  it('inherits connector bindings, naming the unit', () => {
    const set = resolve({ ancestors: [team(), org({ connectors: ['github'] })], connectorTools: { github } })
    expect(set.tools.map((t) => [t.provenance, t.inheritedFromUnit])).toEqual([
      ['connector:github', 'org'],
      ['connector:github', 'org'],
    ])
  })

  it('reports the nearest binding and collapses duplicates', () => {
    const own = resolve({ subject: { connectors: ['github'] }, ancestors: [team({ connectors: ['github'] })], connectorTools: { github } })
    expect(own.tools.map((t) => t.inheritedFromUnit)).toEqual([null, null])
    expect(own.excluded).toEqual([])
    const nearest = resolve({ ancestors: [team({ connectors: ['github'] }), org({ connectors: ['github'] })], connectorTools: { github } })
    expect(nearest.tools.map((t) => t.inheritedFromUnit)).toEqual(['team', 'team'])
    expect(nearest.excluded).toEqual([])
  })

  it('inherits grants; the same Tool granted twice is one entry from the nearest grant', () => {
    const grantedTools = { 'default/acme.echo': echo }
    expect(resolve({ ancestors: [team(), org({ grants: ['acme.echo'] })], grantedTools }).tools).toMatchObject([
      { name: 'acme.echo', provenance: 'grant', inheritedFromUnit: 'org' },
    ])
    const twice = resolve({ subject: { grants: ['acme.echo'] }, ancestors: [team({ grants: ['default/acme.echo'] })], grantedTools })
    expect(twice.tools).toMatchObject([{ name: 'acme.echo', inheritedFromUnit: null }])
    expect(twice.excluded).toEqual([])
  })

  it('resolves a unit grant in the unit namespace', () => {
    const set = resolve({
      ancestors: [{ name: 'team', namespace: 'ops', grants: ['acme.echo'] }],
      grantedTools: { 'ops/acme.echo': catalogTool({ name: 'acme.echo', namespace: 'ops' }) },
    })
    expect(set.tools).toMatchObject([{ name: 'acme.echo', namespace: 'ops', inheritedFromUnit: 'team' }])
  })

  it('inherits toggles', () => {
    const set = resolve({
      subject: { grants: ['acme.echo'] },
      ancestors: [team({ toggles: { 'acme.echo': false } })],
      grantedTools: { 'default/acme.echo': echo },
    })
    expect(set.tools).toMatchObject([{ name: 'acme.echo', state: 'disabled', reason: 'disabled by a toggle on unit "team"' }])
  })

  it('never inherits image tools: only the subject own image counts', () => {
    const unitWithImage = { ...team(), imageTools: [imageTool('team.tool')], imageDigest: 'sha256:team' } as SubjectNode
    const set = resolve({ ancestors: [unitWithImage] })
    expect(all(set)).toEqual([])
  })
})

// ---------- safety ----------

describe('safety rules', () => {
  const guarded = (safety: Pick<CatalogTool, 'allowedAgents' | 'deniedNamespaces'>) => catalogTool({ name: 'zendesk.create_ticket', ...safety })
  const granted = (tool: CatalogTool, subject: Setup['subject'] = {}) =>
    resolve({ subject: { grants: [`${tool.namespace}/${tool.name}`], ...subject }, grantedTools: { [`${tool.namespace}/${tool.name}`]: tool } })

  it('keeps a tool for an agent listed by name or by namespace/name', () => {
    expect(granted(guarded({ allowedAgents: ['support-triage'] }), { name: 'support-triage' }).tools).toMatchObject([{ state: 'enabled' }])
    expect(granted(guarded({ allowedAgents: ['support/support-triage'] }), { name: 'support-triage', namespace: 'support' }).tools).toMatchObject([
      { state: 'enabled' },
    ])
  })

  it('denies an agent not in allowedAgents, with the reason', () => {
    const set = granted(guarded({ allowedAgents: ['support-triage', 'support-escalation'] }), { name: 'bot' })
    expect(set.tools).toEqual([])
    expect(set.excluded).toMatchObject([{ name: 'zendesk.create_ticket', state: 'denied' }])
    expect(set.excluded[0].reason).toContain('safety.allowedAgents')
    expect(set.excluded[0].reason).toContain('"default/bot"')
  })

  it("reads a bare name in the tool's namespace: an agent of that name elsewhere does not pass", () => {
    const tool = catalogTool({ name: 'zendesk.create_ticket', namespace: 'support-platform', allowedAgents: ['support-triage'] })
    expect(granted(tool, { name: 'support-triage', namespace: 'support-platform' }).tools).toMatchObject([{ state: 'enabled' }])
    for (const namespace of ['support', 'evil', 'default']) {
      const set = granted(tool, { name: 'support-triage', namespace })
      expect(set.tools).toEqual([])
      expect(set.excluded[0].reason).toContain(`"${namespace}/support-triage"`)
      expect(set.excluded[0].reason).toContain('a bare name means namespace "support-platform"')
    }
  })

  it('lets namespace/* in every agent of that namespace, and only there', () => {
    const tool = catalogTool({ name: 'zendesk.create_ticket', namespace: 'support-platform', allowedAgents: ['support/*'] })
    expect(granted(tool, { name: 'anyone', namespace: 'support' }).tools).toMatchObject([{ state: 'enabled' }])
    expect(granted(tool, { name: 'anyone', namespace: 'support-platform' }).excluded).toMatchObject([{ state: 'denied' }])
    expect(granted(tool, { name: '*', namespace: 'evil' }).excluded).toMatchObject([{ state: 'denied' }])
  })

  it('does not match namespace/name entries of another namespace', () => {
    const set = granted(guarded({ allowedAgents: ['support/support-triage'] }), { name: 'support-triage', namespace: 'default' })
    expect(set.excluded).toMatchObject([{ state: 'denied' }])
  })

  it('treats an empty allowedAgents as no restriction', () => {
    expect(granted(guarded({ allowedAgents: [] })).tools).toMatchObject([{ state: 'enabled' }])
  })

  it('denies subjects in deniedNamespaces, agents and units alike', () => {
    const tool = catalogTool({ name: 'zendesk.create_ticket', namespace: 'sandbox', deniedNamespaces: ['sandbox'] })
    for (const kind of ['Agent', 'Unit'] as const) {
      const set = granted(tool, { kind, namespace: 'sandbox' })
      expect(set.tools).toEqual([])
      expect(set.excluded).toMatchObject([{ state: 'denied' }])
      expect(set.excluded[0].reason).toContain('safety.deniedNamespaces')
      expect(set.excluded[0].reason).toContain('"sandbox"')
    }
    expect(granted(tool, { namespace: 'prod' }).tools).toMatchObject([{ state: 'enabled' }])
  })

  it('applies safety to connector tools as well', () => {
    const set = resolve({ subject: { connectors: ['zendesk'] }, connectorTools: { zendesk: [guarded({ allowedAgents: ['support-triage'] })] } })
    expect(set.excluded).toMatchObject([{ provenance: 'connector:zendesk', state: 'denied' }])
  })
})

// ---------- reserved namespaces ----------

describe('reserved namespaces', () => {
  it('denies image tools under toolroom.* or a connector slug, even an unbound one', () => {
    const set = resolve({ subject: { imageTools: [imageTool('toolroom.evil'), imageTool('github.fake'), imageTool('acme.fine')] }, connectorSlugs: ['github'] })
    expect(summary(set.tools)).toEqual(['acme.fine image:sha256:abc enabled'])
    expect(set.excluded.map((e) => [e.name, e.state])).toEqual([
      ['toolroom.evil', 'denied'],
      ['github.fake', 'denied'],
    ])
    expect(set.excluded[0].reason).toContain('"toolroom.*" is reserved')
    expect(set.excluded[1].reason).toContain('reserved for connector "github"')
  })

  it('denies MCP tools under a reserved namespace', () => {
    const set = resolve({
      subject: { languageTools: ['github', 'toolroom'] },
      languageToolTools: { github: mcpTools('github', ['create-issue']), toolroom: mcpTools('toolroom', ['list']) },
      connectorSlugs: ['github'],
    })
    expect(set.tools).toEqual([])
    expect(summary(set.excluded)).toEqual(['github.create_issue mcp:github denied', 'toolroom.list mcp:toolroom denied'])
  })

  it('a denied reserved entry does not compete: the owner stays enabled and the impostor is denied, not shadowed', () => {
    const set = resolve({ platformTools: [...PLATFORM_TOOLS], subject: { imageTools: [imageTool('toolroom.list_tools')] } })
    expect(set.tools.every((t) => t.provenance === 'platform' && t.state === 'enabled')).toBe(true)
    expect(set.excluded).toMatchObject([{ name: 'toolroom.list_tools', tier: 'image', state: 'denied' }])
    expect(set.excluded[0].shadowedBy).toBeUndefined()
  })

  it('lets a connector own its slug', () => {
    expect(resolve({ subject: { connectors: ['github'] }, connectorTools: { github } }).tools.every((t) => t.state === 'enabled')).toBe(true)
  })
})

// ---------- toggles ----------

describe('toggles', () => {
  const setup = (subject: Setup['subject'], ancestors: SubjectNode[] = []) =>
    resolve({ subject: { grants: ['acme.echo'], ...subject }, ancestors, grantedTools: { 'default/acme.echo': echo } })
  const unit = (name: string, enabled: boolean): SubjectNode => ({ name, namespace: 'default', toggles: { 'acme.echo': enabled } })

  it('disables a tool toggled off; it stays in tools with the reason', () => {
    const set = setup({ toggles: { 'acme.echo': false } })
    expect(set.tools).toMatchObject([{ name: 'acme.echo', state: 'disabled', reason: 'disabled by a toggle on agent "bot"' }])
    expect(set.excluded).toEqual([])
  })

  it("prefers the agent's own toggle over its unit's", () => {
    expect(setup({ toggles: { 'acme.echo': true } }, [unit('team', false)]).tools).toMatchObject([
      { state: 'enabled', reason: 'enabled by a toggle on agent "bot"' },
    ])
    expect(setup({ toggles: { 'acme.echo': false } }, [unit('team', true)]).tools).toMatchObject([
      { state: 'disabled', reason: 'disabled by a toggle on agent "bot"' },
    ])
  })

  it('lets the nearest unit toggle win; true re-enables a tool disabled higher up', () => {
    expect(setup({}, [unit('team', true), unit('org', false)]).tools).toMatchObject([{ state: 'enabled', reason: 'enabled by a toggle on unit "team"' }])
    expect(setup({}, [unit('team', false), unit('org', true)]).tools).toMatchObject([{ state: 'disabled', reason: 'disabled by a toggle on unit "team"' }])
  })

  it('names a unit subject in the reason', () => {
    expect(setup({ kind: 'Unit', name: 'team', toggles: { 'acme.echo': false } }).tools[0].reason).toBe('disabled by a toggle on unit "team"')
  })

  it('toggles platform tools too', () => {
    const set = resolve({ platformTools: [...PLATFORM_TOOLS], subject: { toggles: { 'toolroom.call_tool': false } } })
    expect(only(set, 'toolroom.call_tool').state).toBe('disabled')
    expect(only(set, 'toolroom.list_tools').state).toBe('enabled')
  })

  it('never toggles image tools', () => {
    const set = resolve({
      subject: { imageTools: [imageTool('acme.local')], toggles: { 'acme.local': false } },
      ancestors: [{ name: 'team', namespace: 'default', toggles: { 'acme.local': false } }],
    })
    expect(set.tools).toMatchObject([{ name: 'acme.local', tier: 'image', state: 'enabled', reason: null }])
  })

  it('leaves reason null when nothing toggles a tool', () => {
    expect(setup({}).tools).toMatchObject([{ state: 'enabled', reason: null }])
  })
})

// ---------- approval, rate limits, side effects ----------

describe('approval, rate limits and side effects', () => {
  const grant = (tool: CatalogTool, policies: Setup['policies'] = {}) =>
    resolve({ subject: { grants: [tool.name] }, grantedTools: { [`default/${tool.name}`]: tool }, policies }).tools[0]
  const policies = { external_write: { requiresApproval: true, rateLimit: { callsPerMinute: 60, callsPerDay: 1000 } }, read_only: { requiresApproval: false } }

  it("uses the tool's own approval override over the policy", () => {
    expect(grant(catalogTool({ name: 'acme.write', level: 'external_write', requiresApproval: false }), policies)).toMatchObject({
      requiresApproval: false,
      approvalSource: 'tool',
    })
    expect(grant(catalogTool({ name: 'acme.read', requiresApproval: true }), policies)).toMatchObject({ requiresApproval: true, approvalSource: 'tool' })
  })

  it('falls back to the SideEffectPolicy of the level', () => {
    expect(grant(catalogTool({ name: 'acme.write', level: 'external_write' }), policies)).toMatchObject({ requiresApproval: true, approvalSource: 'policy' })
    expect(grant(catalogTool({ name: 'acme.read' }), policies)).toMatchObject({ requiresApproval: false, approvalSource: 'policy' })
  })

  it("uses Toolroom's shipped default when no policy exists for the level", () => {
    expect(grant(catalogTool({ name: 'acme.pay', level: 'financial' }), policies)).toMatchObject({ requiresApproval: true, approvalSource: 'default' })
    expect(grant(catalogTool({ name: 'acme.tell', level: 'communication' }), policies)).toMatchObject({ requiresApproval: true, approvalSource: 'default' })
    expect(grant(catalogTool({ name: 'acme.sudo', level: 'privileged' }), policies)).toMatchObject({ requiresApproval: true, approvalSource: 'default' })
    expect(grant(catalogTool({ name: 'acme.save', level: 'local_write' }), policies)).toMatchObject({ requiresApproval: false, approvalSource: 'default' })
    expect(grant(catalogTool({ name: 'acme.run', level: 'code_execution' }), policies)).toMatchObject({ requiresApproval: false, approvalSource: 'default' })
  })

  it('merges rate limits field by field, the tool over the policy', () => {
    expect(grant(catalogTool({ name: 'acme.write', level: 'external_write', rateLimit: { callsPerMinute: 10 } }), policies).rateLimit).toEqual({
      callsPerMinute: 10,
      callsPerDay: 1000,
    })
    expect(grant(catalogTool({ name: 'acme.write', level: 'external_write' }), policies).rateLimit).toEqual({ callsPerMinute: 60, callsPerDay: 1000 })
    expect(grant(catalogTool({ name: 'acme.read', rateLimit: { callsPerDay: 5 } }), policies).rateLimit).toEqual({ callsPerMinute: null, callsPerDay: 5 })
    expect(grant(catalogTool({ name: 'acme.read', rateLimit: { callsPerMinute: 0 } }), policies).rateLimit).toEqual({ callsPerMinute: 0, callsPerDay: null })
  })

  it('copies level, annotations, schemas and 7-day stats', () => {
    const tool = catalogTool({
      name: 'acme.write',
      level: 'external_write',
      levelSource: 'declared',
      annotations: annotationsForLevel('external_write', true),
      outputSchema: { type: 'string' },
      stats: { totalCalls7d: 412, failureRate7d: 0.014 },
    })
    expect(grant(tool)).toMatchObject({
      sideEffects: { level: 'external_write', levelSource: 'declared', idempotent: true },
      annotations: { readOnly: false, destructive: true, idempotent: true, openWorld: true },
      outputSchema: { type: 'string' },
      inputSchema: { type: 'object' },
      description: 'acme.write does things',
      totalCalls7d: 412,
      failureRate7d: 0.014,
    })
  })
})

// ---------- determinism ----------

describe('determinism', () => {
  const base = (order: 'forward' | 'reverse'): Setup => {
    const flip = <T>(xs: T[]) => (order === 'forward' ? xs : [...xs].reverse())
    return {
      platformTools: [...PLATFORM_TOOLS],
      subject: {
        connectors: ['github', 'jira'],
        imageTools: [imageTool('acme.b'), imageTool('acme.a'), imageTool('toolroom.x')],
        languageTools: ['mem0-memory'],
        grants: ['acme.echo', 'github.create_issue'],
        toggles: { 'acme.echo': false },
      },
      ancestors: [{ name: 'team', namespace: 'default', connectors: ['jira'], grants: ['acme.missing'] }],
      connectorTools: Object.fromEntries(
        flip([
          ['github', github],
          ['jira', [catalogTool({ name: 'jira.create' })]],
        ]),
      ),
      languageToolTools: Object.fromEntries(
        flip([
          ['mem0-memory', mcpTools('mem0-memory', ['remember', 'recall'])],
          ['unused', mcpTools('unused', ['x'])],
        ]),
      ),
      grantedTools: Object.fromEntries(
        flip([
          ['default/acme.echo', echo],
          ['default/github.create_issue', github[0]],
        ]),
      ),
      connectorSlugs: flip(['github', 'jira']),
      policies: Object.fromEntries(
        flip([
          ['read_only', { requiresApproval: false }],
          ['external_write', { requiresApproval: true }],
        ]),
      ),
    }
  }

  it('gives deep-equal output for the same input twice', () => {
    expect(resolve(base('forward'))).toEqual(resolve(base('forward')))
  })

  it('does not depend on the insertion order of the lookup maps and sets', () => {
    const a = resolve(base('forward'))
    expect(resolve(base('reverse'))).toEqual(a)
    expect(summary(a.tools)).toContain('jira.create connector:jira enabled')
  })

  it('does depend on declaration order', () => {
    const set = base('forward')
    const connectorNames = (s: Setup) =>
      resolve(s)
        .tools.filter((t) => t.tier === 'connector')
        .map((t) => t.name)
    expect(connectorNames(set)).toEqual(['github.list_repos', 'jira.create'])
    expect(connectorNames({ ...set, subject: { ...set.subject, connectors: ['jira', 'github'] } })).toEqual(['jira.create', 'github.list_repos'])
  })
})

// ---------- unresolved ----------

describe('unresolved references', () => {
  it('reports a missing connector, LanguageTool and grant and keeps the rest', () => {
    const set = resolve({
      subject: { connectors: ['nope', 'github'], languageTools: ['ghost'], grants: ['acme.gone', 'acme.echo'] },
      connectorTools: { github },
      grantedTools: { 'default/acme.echo': echo },
    })
    expect(set.unresolved).toEqual([
      { field: 'spec.connectors', reference: 'nope', inheritedFromUnit: null, message: 'connector "nope" does not exist' },
      { field: 'spec.languageTools', reference: 'ghost', inheritedFromUnit: null, message: 'LanguageTool "ghost" does not exist' },
      { field: 'spec.grants', reference: 'acme.gone', inheritedFromUnit: null, message: 'Tool "acme.gone" does not exist' },
    ])
    expect(set.tools.map((t) => t.name)).toEqual(['github.create_issue', 'github.list_repos', 'acme.echo'])
  })

  it('names the unit a missing reference is inherited from', () => {
    const set = resolve({ ancestors: [{ name: 'team', namespace: 'default', connectors: ['nope'], grants: ['other/acme.gone'] }] })
    expect(set.unresolved).toMatchObject([
      { field: 'spec.connectors', reference: 'nope', inheritedFromUnit: 'team' },
      { field: 'spec.grants', reference: 'other/acme.gone', inheritedFromUnit: 'team' },
    ])
  })

  it('does not resolve a bare grant against another namespace', () => {
    const set = resolve({ subject: { grants: ['acme.echo'] }, grantedTools: { 'shared/acme.echo': catalogTool({ name: 'acme.echo', namespace: 'shared' }) } })
    expect(set.tools).toEqual([])
    expect(set.unresolved).toMatchObject([{ field: 'spec.grants', reference: 'acme.echo' }])
  })
})
