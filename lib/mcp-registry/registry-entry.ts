// A LanguageTool as an entry of the MCP Registry API (docs/design/registry-api.md): pure, from the
// row and what the caller reached Toolroom at. Clients are pointed at Toolroom's gateway, never at
// the server's own address, so every call they make there is governed.
import 'server-only'
import { createHash } from 'node:crypto'
import { catalogToolsFromMcp, type DiscoveredMcpTool } from '@/lib/effective-tools/catalog-tools'
import { isObject } from '@/lib/json/unknown-values'
import { OFFICIAL_META_KEY, type RegistryServerResponse, type RegistryTool, TOOLROOM_META_KEY } from './registry-schemas'

/** The server.json schema the answers follow (vendor/mcp-registry/README.md). */
export const SERVER_SCHEMA_URL = 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json'

const NAME_PREFIX = 'dev.toolroom.'
const DNS_LABEL = '[a-z0-9](?:[-a-z0-9]{0,61}[a-z0-9])?'
const SERVER_NAME = new RegExp(`^dev\\.toolroom\\.(${DNS_LABEL})/(${DNS_LABEL})$`)

/** `dev.toolroom.<namespace>/<name>`: the registry's reverse-DNS form of a LanguageTool's address. */
export function registryServerName(namespace: string, name: string): string {
  return `${NAME_PREFIX}${namespace}/${name}`
}

/**
 * The LanguageTool a registry server name stands for; null when it is not one this registry gives out.
 * Clients send the slash as %2F, which a router may or may not have decoded; no name holds a `%`.
 */
export function parseRegistryServerName(serverName: string): { namespace: string; name: string } | null {
  const match = SERVER_NAME.exec(serverName.replace(/%2F/gi, '/'))
  return match ? { namespace: match[1], name: match[2] } : null
}

// A version the server reports itself (MCP serverInfo.version) is the upstream's text: it is served
// only when it is a plain version a path segment and a client's comparison can hold, never a range or
// the word the API reserves for "the newest".
const PLAIN_VERSION = /^[0-9A-Za-z][0-9A-Za-z.+_-]{0,63}$/
const RANGE_PART = /(?:^|\.)[xX*](?:\.|$)/
export const UNKNOWN_VERSION = '0.0.0'

export function serverVersionOf(serverInfo: unknown): string {
  const version = isObject(serverInfo) ? serverInfo.version : undefined
  if (typeof version !== 'string' || !PLAIN_VERSION.test(version) || RANGE_PART.test(version) || version.toLowerCase() === 'latest') return UNKNOWN_VERSION
  return version
}

/** At most `max` characters, cut between code points (a lone surrogate is not text). */
function clip(text: string, max: number): string {
  const points = Array.from(text)
  return points.length <= max ? text : `${points.slice(0, max - 1).join('')}…`
}

export interface RegistryRow {
  id: string
  namespace: string
  name: string
  spec: unknown
  toolSchemas: unknown
  phase: string
  lastError: string | null
  serverInfo: unknown
  createdAt: Date
  updatedAt: Date
  /** Surface changes that moved what agents see (applied, held-but-applied, accepted). */
  surfaceRevision: number
  surfaceChangedAt: Date | null
}

/** When the entry last changed: its spec, or the tools it serves. */
export function entryUpdatedAt(row: Pick<RegistryRow, 'updatedAt' | 'surfaceChangedAt'>): Date {
  return row.surfaceChangedAt && row.surfaceChangedAt > row.updatedAt ? row.surfaceChangedAt : row.updatedAt
}

export function registryEntry(row: RegistryRow, origin: string): RegistryServerResponse {
  const gateway = `${origin}/mcp`
  const spec = (isObject(row.spec) ? row.spec : {}) as { description?: string }
  const description = spec.description?.trim() ? clip(spec.description.trim(), 100) : clip(`MCP server ${row.namespace}/${row.name}, through Toolroom`, 100)
  const surface = Array.isArray(row.toolSchemas) ? (row.toolSchemas as DiscoveredMcpTool[]) : []
  return {
    server: {
      $schema: SERVER_SCHEMA_URL,
      name: registryServerName(row.namespace, row.name),
      description,
      title: row.name,
      version: serverVersionOf(row.serverInfo),
      remotes: [
        {
          type: 'streamable-http',
          url: gateway,
          headers: [
            {
              name: 'Authorization',
              description: `Bearer and an agent credential of Toolroom (tra_…): the gateway serves the agent's tools, this server's named ${row.name}.*`,
              isRequired: true,
              isSecret: true,
            },
          ],
        },
      ],
    },
    _meta: {
      [OFFICIAL_META_KEY]: {
        status: 'active',
        publishedAt: row.createdAt.toISOString(),
        updatedAt: entryUpdatedAt(row).toISOString(),
        isLatest: true,
      },
      [TOOLROOM_META_KEY]: {
        namespace: row.namespace,
        name: row.name,
        phase: row.phase,
        gateway,
        surface: {
          revision: row.surfaceRevision,
          digest: `sha256:${createHash('sha256').update(JSON.stringify(surface)).digest('hex')}`,
          changedAt: row.surfaceChangedAt?.toISOString() ?? null,
        },
        tools: registryTools(row, surface),
      },
    },
  }
}

function registryTools(row: RegistryRow, surface: DiscoveredMcpTool[]): RegistryTool[] {
  const titles = new Map(surface.map((tool) => [tool.name, tool.title]))
  return catalogToolsFromMcp(row.name, row, surface, { kind: 'LanguageTool', name: row.name, namespace: row.namespace }).map((tool) => {
    const title = titles.get(tool.upstreamName!)
    return {
      name: tool.name,
      upstreamName: tool.upstreamName!,
      ...(typeof title === 'string' ? { title } : {}),
      description: tool.description,
      level: tool.level,
      levelSource: tool.levelSource,
    }
  })
}
