// The authenticated moment that makes an origin serve `/mcp` as a protected resource: an MCP client's
// authorization request asks for `<origin>/mcp` at the origin it reached, and the browser carries the
// session of an operator or admin there (the only people who may consent). It runs before the
// authorization server, which refuses a resource it does not know before it looks at the session; a
// signed-out person is therefore sent to sign in first, and comes back to this same request.
// Which origins serve the resource, and why: lib/oauth/protected-resource.ts.
import 'server-only'
import { isAllowed } from '@/lib/auth/access-rules'
import { authenticateSession } from './authenticate'
import { requestOrigin } from '@/lib/request-origin/public-origin'
import { OAUTH_LOGIN_PAGE } from '@/lib/oauth/oauth-provider'
import { isMcpResource, mcpResourceOf, registerMcpResource } from '@/lib/oauth/protected-resource'

/** A redirect to sign in, or null: the authorization server takes the request from here. */
export async function admitAuthorizeResource(request: Request): Promise<Response | null> {
  const query = new URL(request.url).searchParams
  const origin = requestOrigin(request)
  if (!origin || !query.getAll('resource').includes(mcpResourceOf(origin)) || (await isMcpResource(origin))) return null
  const actor = await authenticateSession(request.headers)
  if (!actor) return new Response(null, { status: 302, headers: { location: `${OAUTH_LOGIN_PAGE}?${query}`, 'cache-control': 'no-store' } })
  // Anyone else signed in gets the authorization server's own answer (an unknown resource).
  if (isAllowed(actor, 'write')) await registerMcpResource(origin)
  return null
}
