// `/mcp` as an OAuth protected resource (RFC 9728): its identifier is `<origin>/mcp`, where origin is
// TOOLROOM_PUBLIC_URL or the address the request reached Toolroom at (lib/request-origin/public-origin.ts), and
// the authorization server is better-auth's at `<origin>/api/auth`.
//
// The authorization server issues tokens only for resources in its table (RFC 8707), and what puts a
// row there is never an anonymous request, whose Host header is the client's to choose (SECURITY.md,
// "MCP authorization: which origins"):
//  - configuration: TOOLROOM_PUBLIC_URL's origin (seeded by the authorization server itself,
//    lib/oauth/oauth-provider.ts). Not `localhost:<PORT>` without it: behind the front, Next.js's
//    PORT is its internal one, and an admin registering the client has acted at the real origin anyway;
//  - an authenticated moment at an origin: a signed-in operator or admin sent there by an MCP
//    client's authorization request (before the authorization server checks the resource), an admin
//    registering an OAuth client or letting an agent accept dynamically registered ones.
// The metadata document is computed from the request and stores nothing.
import 'server-only'
import { config } from '@/lib/config'
import { prisma } from '@/lib/db'
import { requestOrigin } from '@/lib/request-origin/public-origin'
import { MCP_SCOPE, OAUTH_SCOPES } from './oauth-settings'

export const mcpResourceOf = (origin: string) => `${origin}/mcp`
export const authorizationServerOf = (origin: string) => `${origin}/api/auth`
/** Where a client finds the metadata of `<origin>/mcp` (RFC 9728 §3.1: the well-known path, then the resource's path). */
export const resourceMetadataUrlOf = (origin: string) => `${origin}/.well-known/oauth-protected-resource/mcp`

/** The resource row configuration alone makes (TOOLROOM_PUBLIC_URL's), for the authorization server to seed. */
export function configuredMcpResources(from = config()) {
  return from.TOOLROOM_PUBLIC_URL ? [mcpResourceRow(new URL(from.TOOLROOM_PUBLIC_URL).origin)] : []
}

const mcpResourceRow = (origin: string) => ({
  identifier: mcpResourceOf(origin),
  name: `Toolroom gateway at ${origin}`,
  allowedScopes: [...OAUTH_SCOPES],
})

// Rows are never deleted by Toolroom, so a hit here stays true.
const known = ((globalThis as { __toolroomMcpResources?: Set<string> }).__toolroomMcpResources ??= new Set())

export async function isMcpResource(origin: string): Promise<boolean> {
  const identifier = mcpResourceOf(origin)
  if (known.has(identifier)) return true
  const found = await prisma.oauthResource.findUnique({ where: { identifier }, select: { id: true } })
  if (found) known.add(identifier)
  return found !== null
}

/**
 * Serve `/mcp` at `origin` as a protected resource from now on. Only for an authenticated moment
 * (see the top of this file): the caller has checked who acts, and the origin is the one they reached.
 */
export async function registerMcpResource(origin: string): Promise<void> {
  if (await isMcpResource(origin)) return
  const row = mcpResourceRow(origin)
  await prisma.oauthResource.upsert({ where: { identifier: row.identifier }, create: row, update: {} })
  known.add(row.identifier)
}

/** registerMcpResource at the origin an admin's request reached (nothing when it named no usable host). */
export async function registerMcpResourceWhereAdminActs(request: Request): Promise<void> {
  const origin = requestOrigin(request)
  if (origin) await registerMcpResource(origin)
}

export interface ProtectedResourceMetadata {
  resource: string
  authorization_servers: string[]
  scopes_supported: string[]
  bearer_methods_supported: string[]
  resource_name: string
}

export function protectedResourceMetadata(origin: string): ProtectedResourceMetadata {
  return {
    resource: mcpResourceOf(origin),
    authorization_servers: [authorizationServerOf(origin)],
    scopes_supported: [MCP_SCOPE],
    bearer_methods_supported: ['header'],
    resource_name: 'Toolroom MCP gateway',
  }
}
