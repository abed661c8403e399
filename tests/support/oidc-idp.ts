// A real authorization server for tests: oidc-provider (npm), on a free loopback port, issuing opaque
// access tokens by the client credentials grant, with RFC 8707 resource indicators, and (as an
// organisation's IdP) people's JWT access tokens, signed with its own keys and published at its
// JWKS, for token exchange (`personToken`); and as an upstream's authorization server it exchanges
// those tokens (RFC 8693, registered with its grant type extension API). It counts the
// token requests it receives, can hold them at a gate (to line up concurrent refreshes), and
// verifies the tokens it issued for the test's upstreams (no mock of OAuth: its own token store).
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { createRemoteJWKSet, jwtVerify } from 'jose'
import Provider, { errors } from 'oidc-provider'
import { requestGate } from './request-gate'

export interface TestIdp {
  issuer: string
  /** Token requests received (all clients, success or not). */
  tokenRequests(): number
  /** Lifetime of the tokens issued from now on. */
  setTokenTtl(seconds: number): void
  /** Holds token requests until `release()`; `held()` counts those waiting. */
  hold(): { release(): void; held(): number }
  /** What the server knows of a token it issued, or null (unknown or expired). */
  verify(token: string): Promise<{ clientId: string; scopes: string[]; resource: string | undefined; expiresAt: number } | null>
  /**
   * A person's access token as this IdP issues it for `audience`: a JWT (`at+jwt`) with `sub`, `jti`,
   * `exp` and the given claims, signed with the IdP's own key. `expiredSecondsAgo` issues one whose
   * lifetime already ended that long ago.
   */
  personToken(person: { subject: string; claims?: Record<string, unknown> }, opts: { audience: string; expiredSecondsAgo?: number }): Promise<string>
  /** Token exchange requests received (RFC 8693, the grant registered on this server). */
  exchanges(): number
  /** From now on token exchange answers this error (`invalid_grant`, ...), or issues tokens again (null). */
  refuseExchanges(error: string | null): void
  close(): Promise<void>
}

const TOKEN_EXCHANGE = 'urn:ietf:params:oauth:grant-type:token-exchange'
const ACCESS_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:access_token'
const EXCHANGED_TOKEN_TTL_SECONDS = 300

/** The client people's tokens are issued to (an application of the organisation's, not Toolroom). */
const PERSON_TOKEN_CLIENT = { clientId: 'people-app', clientSecret: 'people-app-secret' }
const PERSON_TOKEN_TTL_SECONDS = 600
/** What a person token carries besides the provider's own claims, handed to the JWT customizer (the provider replaces `extra` on save). */
const personClaims = new WeakMap<object, { claims: Record<string, unknown>; backdate: number }>()

export async function startTestIdp(clients: { clientId: string; clientSecret: string }[], scopes: string[]): Promise<TestIdp> {
  const server = http.createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  let ttl = 600
  let requests = 0
  const gate = requestGate()
  const provider = new Provider(issuer, {
    clients: [...clients, PERSON_TOKEN_CLIENT].map((c) => ({
      client_id: c.clientId,
      client_secret: c.clientSecret,
      grant_types: ['client_credentials', TOKEN_EXCHANGE],
      redirect_uris: [],
      response_types: [],
    })),
    scopes: ['openid', ...scopes],
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      resourceIndicators: {
        enabled: true,
        getResourceServerInfo: () => ({ scope: scopes.join(' '), accessTokenFormat: 'opaque', accessTokenTTL: ttl }),
      },
    },
    ttl: { ClientCredentials: () => ttl },
    formats: {
      customizers: {
        jwt: async (_ctx: unknown, token: object, jwt: { payload: Record<string, unknown> }) => {
          const extra = personClaims.get(token)
          if (!extra) return
          Object.assign(jwt.payload, extra.claims)
          const back = extra.backdate
          if (back > 0) {
            jwt.payload.iat = (jwt.payload.iat as number) - back - PERSON_TOKEN_TTL_SECONDS
            jwt.payload.exp = (jwt.payload.exp as number) - back - PERSON_TOKEN_TTL_SECONDS
          }
        },
      },
    },
  })
  // RFC 8693 token exchange, which oidc-provider leaves to its grant type extension API: the subject
  // token must be a person token this server signed (its own JWKS), and the answer is a JWT access
  // token for the person (`sub`) with the requested resource as its audience.
  let exchanges = 0
  let exchangeRefusal: string | null = null
  const ownKeys = createRemoteJWKSet(new URL(`${issuer}/jwks`))
  provider.registerGrantType(
    TOKEN_EXCHANGE,
    async (ctx) => {
      exchanges++
      const params = ctx.oidc.params as Record<string, string | undefined>
      if (exchangeRefusal) throw Object.assign(new errors.InvalidGrant('the subject token may not be exchanged here'), { error: exchangeRefusal })
      if (params.subject_token_type !== ACCESS_TOKEN_TYPE && params.subject_token_type !== 'urn:ietf:params:oauth:token-type:jwt')
        throw new errors.InvalidRequest('unsupported subject_token_type')
      let sub: string
      try {
        const { payload } = await jwtVerify(params.subject_token ?? '', ownKeys, { issuer })
        sub = payload.sub!
      } catch {
        throw new errors.InvalidGrant('subject_token is not a valid token of this issuer')
      }
      const audience = params.resource ?? params.audience
      if (!audience) throw new errors.InvalidTarget('resource or audience is required')
      const resourceServer = { audience, identifier: () => audience, scope: params.scope ?? '', accessTokenFormat: 'jwt', jwt: { sign: { alg: 'RS256' } } }
      const token = new provider.AccessToken({
        accountId: sub,
        client: ctx.oidc.client,
        resourceServer,
        expiresIn: EXCHANGED_TOKEN_TTL_SECONDS,
        scope: params.scope ?? '',
        gty: 'token-exchange',
      })
      ctx.body = {
        access_token: await token.save(),
        issued_token_type: ACCESS_TOKEN_TYPE,
        token_type: 'Bearer',
        expires_in: EXCHANGED_TOKEN_TTL_SECONDS,
        ...(params.scope ? { scope: params.scope } : {}),
      }
    },
    ['subject_token', 'subject_token_type', 'requested_token_type', 'audience', 'resource', 'scope', 'actor_token', 'actor_token_type'],
  )
  const callback = provider.callback()
  server.on('request', async (req, res) => {
    if (req.method === 'POST' && req.url?.startsWith('/token')) {
      requests++
      await gate.pass()
    }
    callback(req, res)
  })
  return {
    issuer,
    tokenRequests: () => requests,
    setTokenTtl: (seconds) => void (ttl = seconds),
    hold: gate.hold,
    async verify(token) {
      const found = await provider.ClientCredentials.find(token)
      if (!found || found.isExpired) return null
      return {
        clientId: found.clientId!,
        scopes: [...(found.scopes ?? [])],
        resource: typeof found.aud === 'string' ? found.aud : Array.isArray(found.aud) ? found.aud[0] : undefined,
        expiresAt: found.exp! * 1000,
      }
    },
    async personToken(person, { audience, expiredSecondsAgo }) {
      const client = await provider.Client.find(PERSON_TOKEN_CLIENT.clientId)
      const resourceServer = { audience, identifier: () => audience, scope: '', accessTokenFormat: 'jwt', jwt: { sign: { alg: 'RS256' } } }
      const token = new provider.AccessToken({
        accountId: person.subject,
        client,
        resourceServer,
        expiresIn: PERSON_TOKEN_TTL_SECONDS,
        gty: 'authorization_code',
      })
      personClaims.set(token, { claims: person.claims ?? {}, backdate: expiredSecondsAgo ?? 0 })
      return token.save()
    },
    exchanges: () => exchanges,
    refuseExchanges: (error) => void (exchangeRefusal = error),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
