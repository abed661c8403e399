// better-auth's own endpoints under /api/auth, limited to what the portal uses: session lookups,
// single sign-on (start and callback) and sign-out. Password sign-in goes through POST /api/v1/session
// (audited, problem+json); people, passwords and roles are managed through /api/v1/users by admins,
// so better-auth's self-service endpoints (sign-up, update-user, change-password, …) stay closed.
// Its OAuth provider (MCP authorization, lib/oauth/oauth-provider.ts) answers the protocol's own
// endpoints: authorize (browsers), token and revoke (clients, from anywhere; the token endpoint also
// takes RFC 8693 token exchange, answered by lib/oauth/exchange-token.ts, and the revocation endpoint
// the tokens it issued, lib/oauth/revoke-delegated-token.ts), and dynamic client
// registration only while an admin lets some agent accept such clients. Consent goes through
// POST /api/v1/oauth/consent; clients are managed through /api/v1/oauth/clients.
import { AppError } from '@/lib/errors/app-error'
import { admitAuthorizeResource } from './admit-authorize-resource'
import { dynamicRegistrationOpen } from '@/lib/oauth/manage-oauth-clients'
import { problemResponse, toAppError } from '@/lib/errors/problem'
import { publicOrigin } from '@/lib/request-origin/public-origin'
import { authServerMetadata } from './auth-server-metadata'
import { exchangeToken, isTokenExchange } from '@/lib/oauth/exchange-token'
import { limitTokenFailures } from '@/lib/oauth/limit-token-failures'
import { revokeDelegatedToken } from '@/lib/oauth/revoke-delegated-token'
import { getAuth } from './better-auth'
import { withClientAddress } from '@/lib/auth/client-address-header'
import { openAuthEndpoint } from '@/lib/auth/open-auth-endpoints'
import { checkSameOrigin } from '@/lib/auth/same-origin'

const REGISTER = '/api/auth/oauth2/register'
const AUTHORIZE = '/api/auth/oauth2/authorize'
const METADATA = '/api/auth/.well-known/oauth-authorization-server'
const TOKEN = '/api/auth/oauth2/token'
const REVOKE = '/api/auth/oauth2/revoke'
// Both check a client's credentials: guesses at them are limited together.
const CLIENT_AUTHENTICATED = new Set(['/api/auth/oauth2/token', '/api/auth/oauth2/revoke'])

export async function authHandler(request: Request): Promise<Response> {
  const path = new URL(request.url).pathname
  try {
    const rule = openAuthEndpoint(request.method, path)
    if (!rule) throw new AppError('NOT_FOUND', `${request.method} ${path.slice(0, 200)} is not an endpoint here`)
    // better-auth builds its addresses from the Host; one that names no host would get its fallback, our own address.
    publicOrigin(request)
    if (request.method !== 'GET' && !rule.crossSite) checkSameOrigin(request)
    if (path === REGISTER && !(await dynamicRegistrationOpen()))
      return Response.json(
        {
          error: 'access_denied',
          error_description:
            'dynamic client registration is closed here: an admin registers OAuth clients for agents (POST /api/v1/oauth/clients), or lets an agent accept dynamically registered ones',
        },
        { status: 403, headers: { 'cache-control': 'no-store' } },
      )
    if (path === METADATA) return await authServerMetadata(request)
    if (path === AUTHORIZE) {
      const signInFirst = await admitAuthorizeResource(request)
      if (signInFirst) return signInFirst
    }
    // The client address better-auth records with a session is ours, never a header the client sent.
    const headers = withClientAddress(new Headers(request.headers), request)
    const forward = (toForward: Request) => getAuth().handler(new Request(toForward, { headers }))
    // RFC 8693 token exchange is Toolroom's own grant (an agent acting for a person), not better-auth's.
    if (path === TOKEN && request.method === 'POST')
      return await limitTokenFailures(request, async (bounded) => {
        const body = await bounded.text()
        const again = new Request(bounded, { body })
        return isTokenExchange(body) ? exchangeToken(again) : forward(again)
      })
    // Tokens issued by token exchange are Toolroom's own too: revoked here (RFC 7009), the rest by better-auth.
    if (path === REVOKE && request.method === 'POST')
      return await limitTokenFailures(request, async (bounded) => {
        const body = await bounded.text()
        return (await revokeDelegatedToken(body)) ?? forward(new Request(bounded, { body }))
      })
    if (CLIENT_AUTHENTICATED.has(path)) return await limitTokenFailures(request, forward)
    return await forward(request)
  } catch (error) {
    const appError = toAppError(error)
    if (!appError) throw error
    return problemResponse(appError, path)
  }
}
