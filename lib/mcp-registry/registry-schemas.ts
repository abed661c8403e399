// The MCP Registry API's answers as Toolroom gives them (docs/design/registry-api.md): the official
// ServerList / ServerResponse / ServerDetail (vendor/mcp-registry/, held to them in the tests)
// narrowed to what Toolroom fills in, plus Toolroom's own `_meta` entry.
import { SIDE_EFFECT_LEVELS } from '@/lib/manifests/specs/common'
import { z } from '@/lib/http/zod'

/** Toolroom's reverse-DNS namespace, for its `_meta` entry and the names of the servers it serves. */
export const TOOLROOM_META_KEY = 'dev.toolroom/registry'
export const OFFICIAL_META_KEY = 'io.modelcontextprotocol.registry/official'

const remoteHeader = z.object({
  name: z.string(),
  description: z.string(),
  isRequired: z.boolean(),
  isSecret: z.boolean(),
})

export const registryRemoteSchema = z.object({
  type: z.enum(['streamable-http']),
  url: z.string().openapi({ description: "Toolroom's gateway, never the server's own address" }),
  headers: z.array(remoteHeader),
})

export const registryServerDetailSchema = z
  .object({
    $schema: z.string(),
    name: z.string().openapi({ description: 'dev.toolroom.<namespace>/<name> of the LanguageTool', example: 'dev.toolroom.support/github' }),
    description: z.string().min(1).max(100),
    title: z.string().min(1).max(100),
    version: z.string().max(255).openapi({ description: "The server's own version (MCP serverInfo.version) when it gave a plain one, else 0.0.0" }),
    remotes: z.array(registryRemoteSchema),
  })
  .openapi('RegistryServerDetail')

export const registryToolSchema = z.object({
  name: z.string().openapi({ description: 'The canonical tool id agents call it by through the gateway' }),
  upstreamName: z.string(),
  title: z.string().optional(),
  description: z.string(),
  level: z.enum(SIDE_EFFECT_LEVELS),
  levelSource: z.enum(['declared', 'annotations', 'default']),
})

export const toolroomRegistryMetaSchema = z
  .object({
    namespace: z.string(),
    name: z.string(),
    phase: z.string().openapi({ description: 'Pending, Ready or Failed: the state of its last discovery' }),
    gateway: z.string(),
    surface: z.object({
      revision: z.number().int().openapi({ description: 'How many times discovery or a review changed the tools agents see (0: never discovered)' }),
      digest: z.string().openapi({ description: 'sha256 of the tool definitions served now' }),
      changedAt: z.string().nullable().openapi({ description: 'When they last changed (null: never discovered)' }),
    }),
    tools: z.array(registryToolSchema),
  })
  .openapi('ToolroomRegistryMeta')

export const registryServerResponseSchema = z
  .object({
    server: registryServerDetailSchema,
    _meta: z.object({
      [OFFICIAL_META_KEY]: z.object({
        status: z.enum(['active']),
        publishedAt: z.string(),
        updatedAt: z.string(),
        isLatest: z.boolean(),
      }),
      [TOOLROOM_META_KEY]: toolroomRegistryMetaSchema,
    }),
  })
  .openapi('RegistryServerResponse')

export const registryServerListSchema = z
  .object({
    servers: z.array(registryServerResponseSchema),
    metadata: z.object({
      count: z.number().int(),
      nextCursor: z.string().optional().openapi({ description: 'Absent on the last page' }),
    }),
  })
  .openapi('RegistryServerList')

export type RegistryServerResponse = z.output<typeof registryServerResponseSchema>
export type RegistryServerList = z.output<typeof registryServerListSchema>
export type RegistryTool = z.output<typeof registryToolSchema>
