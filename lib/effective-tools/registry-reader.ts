// The registry as the resolver reads it: units, connectors, servers, Tools and policies, fetched in
// batches and kept for as long as the registry has not changed (one memo per epoch, shared by all
// requests of this process). Without a live change listener every reader starts empty.
import 'server-only'
import { prisma } from '@/lib/db'
import { parseRef, qualifyRef } from '@/lib/refs/resource-ref'
import type { SideEffectLevel } from '@/lib/manifests/specs/common'
import type { ConnectorSpec } from '@/lib/manifests/specs/connector'
import type { UnitSpec } from '@/lib/manifests/specs/fleet'
import type { LanguageToolSpec } from '@/lib/manifests/specs/language-tool'
import type { SideEffectPolicySpec } from '@/lib/manifests/specs/side-effect-policy'
import type { ToolSpec } from '@/lib/manifests/specs/tool'
import { registryEpoch } from '@/lib/registry/registry-changes'
import { db, sql } from '@/lib/sql'
import { batchedLoads } from './batched-loads'
import { catalogToolFromRow, catalogToolsFromMcp, type DiscoveredMcpTool, type ToolRowLike } from './catalog-tools'
import type { CatalogTool, PolicyDefaults } from './types'

export interface ServerSurface {
  name: string
  namespace: string
  toolSchemas: DiscoveredMcpTool[]
  phase: string
  lastError: string | null
  spec: LanguageToolSpec
  /** How its last discovery reached it (lib/gateway/mcp-target.ts). */
  detectedTransport: string | null
  detectedUrl: string | null
}

export interface RegistryReader {
  unitsIn(namespace: string): Promise<Map<string, UnitSpec>>
  /** Every connector by slug (there are few); its keys are the reserved tool namespaces. */
  connectors(): Promise<Map<string, { namespace: string; spec: ConnectorSpec }>>
  /** Tools of one connector: its listed Tools and its MCP server's tools under `<slug>.*`. */
  connectorTools(slug: string): Promise<CatalogTool[] | undefined>
  policies(): Promise<Map<SideEffectLevel, PolicyDefaults>>
  /** Tool resources by `namespace/name`; missing ones are absent from the map. */
  tools(refs: string[]): Promise<Map<string, CatalogTool>>
  /** The specs of Tool resources by `namespace/name` (the gateway runs them by their endpoint or command). */
  toolSpecs(refs: string[]): Promise<Map<string, ToolSpec>>
  /** LanguageTools by `namespace/name`, with their discovered tools. */
  servers(refs: string[]): Promise<Map<string, ServerSurface>>
}

const memo: { epoch: number | null; reader: RegistryReader | null } = ((
  globalThis as { __toolroomRegistryReader?: { epoch: number | null; reader: RegistryReader | null } }
).__toolroomRegistryReader ??= {
  epoch: null,
  reader: null,
})

export function registryReader(): RegistryReader {
  const epoch = registryEpoch()
  if (epoch === null) return createReader()
  if (memo.epoch !== epoch || !memo.reader) {
    memo.epoch = epoch
    memo.reader = createReader()
  }
  return memo.reader
}

/** A promise per key, so concurrent requests share one query instead of racing to make it. */
function once<T>(load: () => Promise<T>): () => Promise<T> {
  let value: Promise<T> | null = null
  return () =>
    (value ??= load().catch((e) => {
      value = null
      throw e
    }))
}

export function keyed<T>(loadMissing: (refs: string[]) => Promise<Map<string, T>>) {
  const known = new Map<string, Promise<T | undefined>>()
  // What has arrived, read without awaiting: a resolve asks for a hundred refs, thousands of times.
  const arrived = new Map<string, T | undefined>()
  // The refs that concurrent resolves miss go out in one query (batched-loads.ts).
  const together = batchedLoads<string[], Map<string, T>>(async (lists) => {
    const found = await loadMissing([...new Set(lists.flat())])
    return lists.map(() => found)
  })
  return async (refs: string[]): Promise<Map<string, T>> => {
    let missing: string[] | null = null
    for (const ref of refs) if (!known.has(ref)) (missing ??= []).push(ref)
    if (missing) {
      const batch = together(missing)
      for (const ref of missing) {
        const value = batch.then((found) => {
          arrived.set(ref, found.get(ref))
          return found.get(ref)
        })
        // A failed batch (the database went away) rejects every ref's promise; the caller awaits only
        // the first, and an unawaited rejection would end the process (a gateway did, mid-restart).
        value.catch(() => {})
        known.set(ref, value)
      }
      const asked = missing
      batch.catch(() => asked.forEach((ref) => known.delete(ref)))
    }
    const out = new Map<string, T>()
    for (const ref of refs) {
      const value = arrived.has(ref) ? arrived.get(ref) : await known.get(ref)
      if (value !== undefined) out.set(ref, value)
    }
    return out
  }
}

/** Qualified refs (`namespace/name`) as two parallel arrays, for one `unnest` join. */
function splitRefs(refs: string[]) {
  const parsed = refs.map((ref) => parseRef(ref, ''))
  return { namespaces: parsed.map((r) => r.namespace), names: parsed.map((r) => r.name) }
}

/**
 * The tools of each connector, from the reader's connectors, Tools and servers (memoized by slug): its
 * listed Tools and its MCP server's tools under `<slug>.*`. Shared by the stored registry's reader and
 * the would-be registry of a dry run (overlay-reader.ts), so both read a connector the same way.
 */
export function connectorToolsOf(reader: Pick<RegistryReader, 'connectors' | 'tools' | 'servers'>): RegistryReader['connectorTools'] {
  const surfaces = new Map<string, Promise<CatalogTool[] | undefined>>()
  return (slug: string) => {
    if (!surfaces.has(slug))
      surfaces.set(
        slug,
        (async () => {
          const connector = (await reader.connectors()).get(slug)
          if (!connector) return undefined
          const { namespace, spec } = connector
          const source = { kind: 'Connector' as const, name: slug, namespace }
          const listedRefs = (spec.tools ?? []).map((t) => `${namespace}/${t}`)
          const serverRef = spec.languageTool ? qualifyRef(spec.languageTool, namespace) : null
          const [listed, server] = await Promise.all([reader.tools(listedRefs), serverRef ? reader.servers([serverRef]) : new Map<string, ServerSurface>()])
          const surface = serverRef ? server.get(serverRef) : undefined
          return [...listedRefs.flatMap((ref) => listed.get(ref) ?? []), ...(surface ? catalogToolsFromMcp(slug, surface, surface.toolSchemas, source) : [])]
        })(),
      )
    return surfaces.get(slug)!
  }
}

function createReader(): RegistryReader {
  const units = new Map<string, () => Promise<Map<string, UnitSpec>>>()

  const connectors = once(async () => {
    const rows = await prisma.connector.findMany({ select: { name: true, namespace: true, spec: true } })
    return new Map(rows.map((c) => [c.name, { namespace: c.namespace, spec: c.spec as ConnectorSpec }]))
  })

  const policies = once(async () => {
    const rows = await prisma.sideEffectPolicy.findMany({ select: { level: true, spec: true } })
    return new Map(
      rows.map((r) => {
        const spec = r.spec as SideEffectPolicySpec
        return [r.level, { requiresApproval: spec.requiresApproval, rateLimit: spec.rateLimit, logArgs: spec.logArgs, logResult: spec.logResult }] as const
      }),
    )
  })

  // One indexed lookup per batch: a join on unnest, not a chain of ORs.
  const tools = keyed(async (refs) => {
    const { namespaces, names } = splitRefs(refs)
    const rows: ToolRowLike[] = await db
      .selectFrom('Tool as t')
      .innerJoin(sql<{ namespace: string; name: string }>`unnest(${namespaces}::text[], ${names}::text[])`.as<'r'>(sql`r(namespace, name)`), (join) =>
        join.onRef('t.namespace', '=', 'r.namespace').onRef('t.name', '=', 'r.name'),
      )
      .select(['t.name', 't.namespace', 't.spec', 't.totalCalls7d', 't.failureRate7d', 't.phase', 't.conditions'])
      .$narrowType<Pick<ToolRowLike, 'conditions'>>()
      .execute()
    return new Map(rows.map((t) => [`${t.namespace}/${t.name}`, catalogToolFromRow(t)]))
  })

  const toolSpecs = keyed(async (refs) => {
    const { namespaces, names } = splitRefs(refs)
    const rows = await db
      .selectFrom('Tool as t')
      .innerJoin(sql<{ namespace: string; name: string }>`unnest(${namespaces}::text[], ${names}::text[])`.as<'r'>(sql`r(namespace, name)`), (join) =>
        join.onRef('t.namespace', '=', 'r.namespace').onRef('t.name', '=', 'r.name'),
      )
      .select(['t.name', 't.namespace', 't.spec'])
      .$narrowType<{ spec: ToolSpec }>()
      .execute()
    return new Map(rows.map((t) => [`${t.namespace}/${t.name}`, t.spec]))
  })

  const servers = keyed(async (refs) => {
    const { namespaces, names } = splitRefs(refs)
    const rows: ServerSurface[] = await db
      .selectFrom('LanguageTool as s')
      .innerJoin(sql<{ namespace: string; name: string }>`unnest(${namespaces}::text[], ${names}::text[])`.as<'r'>(sql`r(namespace, name)`), (join) =>
        join.onRef('s.namespace', '=', 'r.namespace').onRef('s.name', '=', 'r.name'),
      )
      .select(['s.name', 's.namespace', 's.toolSchemas', 's.phase', 's.lastError', 's.spec', 's.detectedTransport', 's.detectedUrl'])
      .$narrowType<Pick<ServerSurface, 'toolSchemas' | 'spec'>>()
      .execute()
    return new Map(rows.map((s) => [`${s.namespace}/${s.name}`, s]))
  })

  const connectorTools = connectorToolsOf({ connectors, tools, servers })

  return {
    unitsIn(namespace) {
      if (!units.has(namespace))
        units.set(
          namespace,
          once(async () => {
            const rows = await prisma.unit.findMany({ where: { namespace }, select: { name: true, spec: true } })
            return new Map(rows.map((u) => [u.name, u.spec as UnitSpec]))
          }),
        )
      return units.get(namespace)!()
    },
    connectors,
    connectorTools,
    policies,
    tools,
    toolSpecs,
    servers,
  }
}
