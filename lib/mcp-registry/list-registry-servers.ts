// The MCP Registry API's reads over the LanguageTools (docs/design/registry-api.md): one page of
// servers, a server's versions, one version. Toolroom keeps each server's current surface only, so
// every server has one version, the latest.
import 'server-only'
import { prisma } from '@/lib/db'
import { Prisma } from '@/lib/generated/prisma/client'
import { notFound } from '@/lib/errors/app-error'
import { decodeCursor, encodeCursor } from '@/lib/http/pagination'
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

const rowsWhere = (where: Prisma.Sql, limit: number) => prisma.$queryRaw<RegistryRow[]>`
  SELECT lt.id, lt.namespace, lt.name, lt.spec, lt."toolSchemas", lt.phase, lt."lastError", lt."serverInfo", lt."createdAt", lt."updatedAt",
    COALESCE(surface.revision, 0)::int AS "surfaceRevision", surface."changedAt" AS "surfaceChangedAt"
  FROM "LanguageTool" lt
  LEFT JOIN LATERAL (
    SELECT count(*) AS revision, max(COALESCE(c."decidedAt", c."detectedAt")) AS "changedAt"
    FROM "SurfaceChange" c
    WHERE c."subjectKind" = 'LanguageTool' AND c."subjectId" = lt.id AND c.status IN (${Prisma.join(SURFACE_MOVES)})
  ) surface ON true
  WHERE ${where}
  ORDER BY lt.namespace, lt.name, lt.id
  LIMIT ${limit}`

export async function listRegistryServers(query: RegistryListQuery, origin: string): Promise<RegistryServerList> {
  const where: Prisma.Sql[] = [Prisma.sql`true`]
  if (query.cursor) {
    const after = decodeCursor(query.cursor)
    where.push(Prisma.sql`(lt.namespace, lt.name, lt.id) > (${after.namespace}, ${after.name}, ${after.id}::uuid)`)
  }
  // The spec's "substring match" of the name, on the name as served; strpos takes the text literally (no LIKE wildcards).
  if (query.search) where.push(Prisma.sql`strpos(lower('dev.toolroom.' || lt.namespace || '/' || lt.name), lower(${query.search})) > 0`)
  if (query.updatedSince) where.push(Prisma.sql`GREATEST(lt."updatedAt", surface."changedAt") > ${query.updatedSince}::timestamptz`)
  const rows = await rowsWhere(Prisma.join(where, ' AND '), query.limit + 1)
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
  const [row] = await rowsWhere(Prisma.sql`lt.namespace = ${address.namespace} AND lt.name = ${address.name}`, 1)
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
