import { describe, expect, it } from 'vitest'
import { parseConfig } from '@/lib/config'
import { diffSurface, isEmptyDiff, summarizeDiff } from '@/lib/discovery/diff-surface'
import { isPinned, shouldProbeCompliance } from '@/lib/discovery/run-mcp-discovery'
import { discoveriesForWrites } from '@/lib/discovery/schedule-discovery'

const t = (name: string, extra: object = {}) => ({ name, description: `${name} tool`, inputSchema: { type: 'object' }, ...extra })

describe('diffSurface', () => {
  it('names added, removed and changed tools, with the fields that changed', () => {
    const d = diffSurface([t('a'), t('b'), t('c')], [t('a'), t('c', { description: 'new', annotations: { readOnlyHint: true } }), t('d')])
    expect(d.added.map((x) => x.name)).toEqual(['d'])
    expect(d.removed.map((x) => x.name)).toEqual(['b'])
    expect(d.changed).toEqual([expect.objectContaining({ name: 'c', fields: ['annotations', 'description'] })])
    expect(summarizeDiff(d)).toBe('+ d, − b, ~ c (annotations, description)')
  })
  it('ignores key order inside schemas but not the order of the surface', () => {
    const before = [t('a', { inputSchema: { type: 'object', required: ['x'] } }), t('b')]
    expect(isEmptyDiff(diffSurface(before, [t('a', { inputSchema: { required: ['x'], type: 'object' } }), t('b')]))).toBe(true)
    const reordered = diffSurface(before, [t('b'), before[0]])
    expect(reordered.reordered).toBe(true)
    expect(isEmptyDiff(reordered)).toBe(false)
  })
})

describe('discoveriesForWrites', () => {
  const digest = (n: number) => `sha256:${String(n).repeat(64)}`
  it('asks for discovery on creation, rotation and address changes only', () => {
    expect(
      discoveriesForWrites([
        { kind: 'Agent', id: 'a1', action: 'created', before: null, after: { image: `r/a@${digest(1)}` } },
        { kind: 'Agent', id: 'a2', action: 'updated', before: { image: `r/a@${digest(1)}` }, after: { image: `r/a@${digest(2)}` } },
        { kind: 'Agent', id: 'a3', action: 'updated', before: { image: 'r/a:1', grants: [] }, after: { image: 'r/a:1', grants: ['x.y'] } },
        { kind: 'Agent', id: 'a4', action: 'unchanged', before: {}, after: {} },
        { kind: 'Unit', id: 'u1', action: 'created', before: null, after: { image: 'r/u:1' } },
        { kind: 'Unit', id: 'u2', action: 'created', before: null, after: { image: 'r/u:1', endpoint: 'http://u:8999' } },
        { kind: 'LanguageTool', id: 's1', action: 'updated', before: { endpoint: 'http://a' }, after: { endpoint: 'http://b' } },
        {
          kind: 'LanguageTool',
          id: 's2',
          action: 'updated',
          before: { endpoint: 'http://a', description: 'x' },
          after: { endpoint: 'http://a', description: 'y' },
        },
        { kind: 'Tool', id: 't1', action: 'created', before: null, after: {} },
      ]),
    ).toEqual([
      { job: 'image', kind: 'Agent', id: 'a1', trigger: 'created' },
      { job: 'image', kind: 'Agent', id: 'a2', trigger: 'rotation' },
      { job: 'image', kind: 'Unit', id: 'u2', trigger: 'created' },
      { job: 'mcp', id: 's1', trigger: 'changed' },
    ])
  })
})

describe('isPinned', () => {
  const spec = (pinning?: boolean) => ({
    port: 8080,
    deploymentMode: 'service' as const,
    transport: 'streamable-http' as const,
    ...(pinning === undefined ? {} : { pinning }),
  })
  it('follows the server, else the namespace setting', () => {
    const pinned = parseConfig({ TOOLROOM_PINNED_NAMESPACES: 'payments, prod' }).TOOLROOM_PINNED_NAMESPACES
    expect(isPinned(spec(), 'prod', pinned)).toBe(true)
    expect(isPinned(spec(), 'dev', pinned)).toBe(false)
    expect(isPinned(spec(false), 'prod', pinned)).toBe(false)
    expect(isPinned(spec(true), 'dev', pinned)).toBe(true)
    expect(isPinned(spec(), 'prod', [])).toBe(false)
  })
})

describe('shouldProbeCompliance', () => {
  const now = new Date('2026-11-22T12:00:00Z')
  it('probes on every trigger but the periodic sweep', () => {
    for (const trigger of ['created', 'rotation', 'changed', 'manual'] as const) expect(shouldProbeCompliance(trigger, '2026-11-22T11:59:00Z', now)).toBe(true)
  })
  it('lets the sweep reuse a report younger than a day, and re-probe an older or missing one', () => {
    expect(shouldProbeCompliance('periodic', '2026-11-22T01:00:00Z', now)).toBe(false)
    expect(shouldProbeCompliance('periodic', '2026-11-21T11:00:00Z', now)).toBe(true)
    expect(shouldProbeCompliance('periodic', undefined, now)).toBe(true)
    expect(shouldProbeCompliance('periodic', 'not a date', now)).toBe(true)
    expect(shouldProbeCompliance('periodic', '2026-11-23T00:00:00Z', now)).toBe(true) // from the future: distrust it
  })
})
