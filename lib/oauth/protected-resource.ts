// `/mcp` as an OAuth protected resource (RFC 9728): its identifier is `<origin>/mcp`, where origin is
// TOOLROOM_PUBLIC_URL or the address the request reached Toolroom at (lib/http/public-origin.ts), and
// the authorization server is better-auth's at `<origin>/api/auth`. The authorization server issues
// tokens only for resources it knows (RFC 8707), so the identifier is recorded the first time its
// metadata is asked for; without TOOLROOM_PUBLIC_URL, at most MAX_DERIVED_RESOURCES origins are.
import 'server-only'
import { config } from '@/lib/config'
import { prisma } from '@/lib/db'
import { AppError } from '@/lib/errors/app-error'
import { MAX_DERIVED_RESOURCES, MCP_SCOPE, OAUTH_SCOPES } from './oauth-settings'

export const mcpResourceOf = (origin: string) => `${origin}/mcp`
export const authorizationServerOf = (origin: string) => `${origin}/api/auth`
/** Where a client finds the metadata of `<origin>/mcp` (RFC 9728 §3.1: the well-known path, then the resource's path). */
export const resourceMetadataUrlOf = (origin: string) => `${origin}/.well-known/oauth-protected-resource/mcp`

const known = ((globalThis as { __toolroomMcpResources?: Set<string> }).__toolroomMcpResources ??= new Set())

export async function ensureMcpResource(origin: string): Promise<string> {
  const identifier = mcpResourceOf(origin)
  if (known.has(identifier)) return identifier
  const existing = await prisma.oauthResource.findUnique({ where: { identifier }, select: { id: true } })
  if (!existing) {
    if (!config().TOOLROOM_PUBLIC_URL && (await prisma.oauthResource.count()) >= MAX_DERIVED_RESOURCES)
      throw new AppError(
        'CONFLICT',
        `Toolroom already serves /mcp as a protected resource at ${MAX_DERIVED_RESOURCES} origins; set TOOLROOM_PUBLIC_URL to the address clients use`,
      )
    await prisma.oauthResource.upsert({
      where: { identifier },
      create: { identifier, name: `Toolroom gateway at ${origin}`, allowedScopes: [...OAUTH_SCOPES] },
      update: {},
    })
  }
  known.add(identifier)
  return identifier
}

export interface ProtectedResourceMetadata {
  resource: string
  authorization_servers: string[]
  scopes_supported: string[]
  bearer_methods_supported: string[]
  resource_name: string
}

export async function protectedResourceMetadata(origin: string): Promise<ProtectedResourceMetadata> {
  return {
    resource: await ensureMcpResource(origin),
    authorization_servers: [authorizationServerOf(origin)],
    scopes_supported: [MCP_SCOPE],
    bearer_methods_supported: ['header'],
    resource_name: 'Toolroom MCP gateway',
  }
}
