// The MCP Registry API's reads over the LanguageTools (docs/design/registry-api.md): one page of
// servers, a server's versions, one version. Toolroom keeps each server's current surface only, so
// every server has one version, the latest.
import 'server-only'
import { notFound } from '@/lib/errors/app-error'
import { decodeCursor, encodeCursor } from '@/lib/http/pagination'
import { db, sql } from '@/lib/sql'
import { parseRegistryServerName, type RegistryRow, registryEntry } from './registry-entry'
import type { RegistryServerList, RegistryServerResponse } from './registry-schemas'

export interface RegistryListQuery {
  cursor?: string
  limit: number
  search?: string
  updatedSince?: Date
  /** `latest` (every server: each has only its latest), or an exact version. */
  version?: string
}

// The surface moved when discovery applied a change (or applied what a held one let through) and
// when an operator accepted a held one; a rejection leaves it as it was.
const SURFACE_MOVES = ['applied', 'pending_review', 'accepted']

const languageToolsWithSurface = () =>
  db.selectFrom('LanguageTool as lt').leftJoinLateral(
    (eb) =>
      eb
        .selectFrom('SurfaceChange as c')
        .select((c) => [c.fn.countAll().as('revision'), c.fn.max(c.fn.coalesce('c.decidedAt', 'c.detectedAt')).as('changedAt')])
        .where('c.subjectKind', '=', 'LanguageTool')
        .whereRef('c.subjectId', '=', 'lt.id')
        .where('c.status', 'in', SURFACE_MOVES)
        .as('surface'),
    (join) => join.onTrue(),
  )
type RegistryQuery = ReturnType<typeof languageToolsWithSurface>

const rowsWhere = (where: (query: RegistryQuery) => RegistryQuery, limit: number): Promise<RegistryRow[]> =>
  where(languageToolsWithSurface())
    .select((eb) => [
      'lt.id',
      'lt.namespace',
      'lt.name',
      'lt.spec',
      'lt.toolSchemas',
      'lt.phase',
      'lt.lastError',
      'lt.serverInfo',
      'lt.createdAt',
      'lt.updatedAt',
      eb.cast<number>(eb.fn.coalesce('surface.revision', sql.lit(0)), 'integer').as('surfaceRevision'),
      'surface.changedAt as surfaceChangedAt',
    ])
    .orderBy('lt.namespace')
    .orderBy('lt.name')
    .orderBy('lt.id')
    .limit(limit)
    .execute()

export async function listRegistryServers(query: RegistryListQuery, origin: string): Promise<RegistryServerList> {
  const after = query.cursor ? decodeCursor(query.cursor) : null
  const { search, updatedSince } = query
  const rows = await rowsWhere(
    (servers) =>
      servers
        .$if(after !== null, (q) =>
          q.where((eb) => eb(eb.refTuple('lt.namespace', 'lt.name', 'lt.id'), '>', eb.tuple(after!.namespace, after!.name, sql<string>`${after!.id}::uuid`))),
        )
        // The spec's "substring match" of the name, on the name as served; strpos takes the text literally (no LIKE wildcards).
        .$if(search !== undefined && search !== '', (q) =>
          q.where((eb) => sql<number>`strpos(lower('dev.toolroom.' || ${eb.ref('lt.namespace')} || '/' || ${eb.ref('lt.name')}), lower(${search}))`, '>', 0),
        )
        .$if(updatedSince !== undefined, (q) =>
          q.where((eb) => eb(eb.fn('greatest', ['lt.updatedAt', 'surface.changedAt']), '>', sql<Date>`${updatedSince}::timestamptz`)),
        ),
    query.limit + 1,
  )
  const page = rows.slice(0, query.limit)
  const last = page.at(-1)
  const nextCursor = rows.length > query.limit && last ? encodeCursor(last) : undefined
  // Every server's one version is its latest: `latest` keeps them all, another version those that are it.
  const servers = page
    .map((row) => registryEntry(row, origin))
    .filter((entry) => !query.version || query.version === 'latest' || entry.server.version === query.version)
  return { servers, metadata: { count: servers.length, ...(nextCursor ? { nextCursor } : {}) } }
}

async function findServer(serverName: string, origin: string): Promise<RegistryServerResponse> {
  const address = parseRegistryServerName(serverName)
  if (!address) throw notFound(`server "${serverName.slice(0, 200)}"`)
  const [row] = await rowsWhere((servers) => servers.where('lt.namespace', '=', address.namespace).where('lt.name', '=', address.name), 1)
  if (!row) throw notFound(`server "${serverName}"`)
  return registryEntry(row, origin)
}

export async function listServerVersions(serverName: string, origin: string): Promise<RegistryServerList> {
  return { servers: [await findServer(serverName, origin)], metadata: { count: 1 } }
}

export async function getServerVersion(serverName: string, version: string, origin: string): Promise<RegistryServerResponse> {
  const entry = await findServer(serverName, origin)
  // Build metadata arrives as %2B (1.0.0%2B20130313144700) when the router left it encoded.
  version = version.replace(/%2B/gi, '+')
  if (version !== 'latest' && version !== entry.server.version) throw notFound(`version "${version.slice(0, 100)}" of server "${serverName}"`)
  return entry
}
