// Single sign-on, configured by environment only: the provider's discovery document comes from a
// real local HTTP server, better-auth's generic OAuth plugin reads it, and the sign-in page shows
// the button. The whole round trip (a person's first sign-in, and the next) runs against a real
// OpenID provider, oidc-provider from npm, in its own describe below.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import Provider from 'oidc-provider'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { renderToString } from 'react-dom/server'
import { createElement } from 'react'
import { SignInForm } from '@/components/access/sign-in-form'
import { createAuth } from '@/lib/sign-in/better-auth'
import { oidcButton } from '@/lib/auth/oidc-config'
import { reloadConfig } from '@/lib/config'
import { prisma } from '@/lib/db'
import { CookieJar } from '../support/cookie-jar'

let server: http.Server
let issuer = ''
const saved = { ...process.env }

beforeAll(async () => {
  server = http.createServer((req, res) => {
    if (req.url === '/.well-known/openid-configuration') {
      res.setHeader('content-type', 'application/json')
      res.end(
        JSON.stringify({
          issuer,
          authorization_endpoint: `${issuer}/authorize`,
          token_endpoint: `${issuer}/token`,
          userinfo_endpoint: `${issuer}/userinfo`,
          jwks_uri: `${issuer}/jwks`,
          response_types_supported: ['code'],
          subject_types_supported: ['public'],
          id_token_signing_alg_values_supported: ['RS256'],
        }),
      )
    } else res.writeHead(404).end()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  Object.assign(process.env, {
    TOOLROOM_OIDC_ISSUER: issuer,
    TOOLROOM_OIDC_CLIENT_ID: 'toolroom-test',
    TOOLROOM_OIDC_CLIENT_SECRET: 'not-so-secret',
    TOOLROOM_OIDC_NAME: 'Test IdP',
  })
  reloadConfig()
})

afterAll(async () => {
  for (const key of Object.keys(process.env)) if (key.startsWith('TOOLROOM_OIDC_') && !(key in saved)) delete process.env[key]
  reloadConfig()
  await new Promise((resolve) => server.close(resolve))
})

describe('OpenID Connect sign-in', () => {
  it('shows the provider button on the sign-in page', () => {
    const html = renderToString(createElement(SignInForm, { oidc: oidcButton(), providerError: null }))
    expect(html).toContain('Sign in with <!-- -->Test IdP')
    expect(renderToString(createElement(SignInForm, { oidc: null, providerError: null }))).not.toContain('Sign in with')
  })

  it('redirects to the provider’s authorization endpoint with PKCE and our client id', async () => {
    const auth = createAuth()
    const res = await auth.handler(
      new Request('http://toolroom.test/api/auth/sign-in/social', {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: 'http://toolroom.test' },
        body: JSON.stringify({ provider: 'oidc', callbackURL: '/' }),
      }),
    )
    expect(res.status).toBe(200)
    const { url } = (await res.json()) as { url: string }
    const target = new URL(url)
    expect(`${target.origin}${target.pathname}`).toBe(`${issuer}/authorize`)
    expect(target.searchParams.get('client_id')).toBe('toolroom-test')
    expect(target.searchParams.get('code_challenge_method')).toBe('S256')
    expect(target.searchParams.get('redirect_uri')).toBe('http://toolroom.test/api/auth/callback/oidc')
    expect(target.searchParams.get('scope')).toBe('openid email profile')
  })
})

describe('better-auth endpoints', () => {
  it('are open only for sessions, single sign-on and sign-out', async () => {
    const { authHandler } = await import('@/lib/sign-in/auth-handler')
    const post = (path: string, body: unknown) =>
      authHandler(
        new Request(`http://toolroom.test${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin: 'http://toolroom.test' },
          body: JSON.stringify(body),
        }),
      )
    expect((await post('/api/auth/sign-up/email', { email: 'x@y.test', password: 'long enough password', name: 'x' })).status).toBe(404)
    expect((await post('/api/auth/sign-in/email', { email: 'x@y.test', password: 'whatever' })).status).toBe(404)
    expect((await post('/api/auth/update-user', { role: 'admin' })).status).toBe(404)
    const closed = await post('/api/auth/change-password', { currentPassword: 'a', newPassword: 'b' })
    expect(closed.status).toBe(404)
    expect(closed.headers.get('content-type')).toBe('application/problem+json')
    expect((await authHandler(new Request('http://toolroom.test/api/auth/get-session'))).status).toBe(200)
  })
})

describe('a sign-in through a real OpenID provider', () => {
  const TOOLROOM = 'http://toolroom.test'
  let idp: http.Server
  let idpIssuer = ''

  beforeAll(async () => {
    idp = http.createServer()
    await new Promise<void>((resolve) => idp.listen(0, '127.0.0.1', resolve))
    idpIssuer = `http://127.0.0.1:${(idp.address() as AddressInfo).port}`
    const provider = new Provider(idpIssuer, {
      clients: [
        {
          client_id: 'toolroom-sso',
          client_secret: 'toolroom-sso-secret-0123456789',
          redirect_uris: [`${TOOLROOM}/api/auth/callback/oidc`],
          grant_types: ['authorization_code'],
          response_types: ['code'],
        },
      ],
      // Its built-in login and consent pages: whoever signs in is who they say (login = account id).
      features: { devInteractions: { enabled: true } },
      claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
      findAccount: (_ctx: unknown, sub: string) => ({
        accountId: sub,
        claims: () => ({ sub, email: sub, email_verified: true, name: 'Jane Doe' }),
      }),
      pkce: { required: () => true },
    })
    idp.on('request', provider.callback())
    Object.assign(process.env, {
      TOOLROOM_OIDC_ISSUER: idpIssuer,
      TOOLROOM_OIDC_CLIENT_ID: 'toolroom-sso',
      TOOLROOM_OIDC_CLIENT_SECRET: 'toolroom-sso-secret-0123456789',
      TOOLROOM_OIDC_NAME: 'Test IdP',
    })
    reloadConfig()
  })

  afterAll(async () => {
    for (const key of Object.keys(process.env)) if (key.startsWith('TOOLROOM_OIDC_') && !(key in saved)) delete process.env[key]
    reloadConfig()
    idp.closeAllConnections()
    await new Promise((resolve) => idp.close(resolve))
  })

  /** Signs `email` in as a browser would: Toolroom → the provider's login and consent → Toolroom's callback. */
  async function signInThroughIdp(email: string): Promise<{ answer: Response; toolroom: CookieJar }> {
    const auth = createAuth()
    const toolroom = new CookieJar()
    const browser = new CookieJar()
    const started = toolroom.take(
      await auth.handler(
        new Request(`${TOOLROOM}/api/auth/sign-in/social`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin: TOOLROOM },
          body: JSON.stringify({ provider: 'oidc', callbackURL: '/' }),
        }),
      ),
    )
    expect(started.status).toBe(200)
    let next = ((await started.json()) as { url: string }).url
    // Through the provider's pages, following its redirects, until it sends the browser back to us.
    for (let step = 0; step < 12 && !next.startsWith(TOOLROOM); step++) {
      const interaction = /\/interaction\/([^/?#]+)$/.exec(new URL(next).pathname)
      const res = browser.take(
        interaction
          ? await fetch(`${idpIssuer}/interaction/${interaction[1]}`, {
              method: 'POST',
              redirect: 'manual',
              headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: browser.header() },
              body: new URLSearchParams(
                (await (await fetch(next, { headers: { cookie: browser.header() } })).text()).includes('name="login"')
                  ? { prompt: 'login', login: email, password: 'any' }
                  : { prompt: 'consent' },
              ),
            })
          : await fetch(next, { redirect: 'manual', headers: { cookie: browser.header() } }),
      )
      expect([302, 303], await res.clone().text()).toContain(res.status)
      next = new URL(res.headers.get('location')!, next).href
    }
    expect(next.startsWith(`${TOOLROOM}/api/auth/callback/oidc?`), next).toBe(true)
    expect(new URL(next).searchParams.get('code')).toBeTruthy()
    const answer = toolroom.take(await auth.handler(new Request(next, { headers: { cookie: toolroom.header() } })))
    return { answer, toolroom }
  }

  it("makes a person's first sign-in a viewer, with the provider's name and email, and signs them in", async () => {
    const email = `jane.${Date.now().toString(36)}@sso.test`
    const { answer, toolroom } = await signInThroughIdp(email)
    expect(answer.status, await answer.clone().text()).toBe(302)
    expect(new URL(answer.headers.get('location')!, TOOLROOM).pathname).toBe('/')
    const user = await prisma.user.findUniqueOrThrow({ where: { email } })
    expect(user).toMatchObject({ name: 'Jane Doe', role: 'viewer', disabledAt: null })
    expect(await prisma.account.findFirst({ where: { userId: user.id, providerId: 'oidc' } })).not.toBeNull()
    // The session works: better-auth answers for it with the person.
    const session = await createAuth().handler(new Request(`${TOOLROOM}/api/auth/get-session`, { headers: { cookie: toolroom.header() } }))
    expect(((await session.json()) as { user?: { email: string } } | null)?.user?.email).toBe(email)
    expect(await prisma.auditEvent.findFirst({ where: { action: 'auth.signed_in', resourceId: user.id } })).not.toBeNull()

    // The next sign-in is the same person, not a second account.
    const again = await signInThroughIdp(email)
    expect(again.answer.status).toBe(302)
    expect(await prisma.user.count({ where: { email } })).toBe(1)
  })

  it('gives a disabled person no session', async () => {
    const email = `gone.${Date.now().toString(36)}@sso.test`
    expect((await signInThroughIdp(email)).answer.status).toBe(302)
    await prisma.user.update({ where: { email }, data: { disabledAt: new Date() } })
    const { answer, toolroom } = await signInThroughIdp(email)
    expect(new URL(answer.headers.get('location') ?? '/', TOOLROOM).searchParams.get('error'), answer.headers.get('location') ?? '').toBeTruthy()
    const session = await createAuth().handler(new Request(`${TOOLROOM}/api/auth/get-session`, { headers: { cookie: toolroom.header() } }))
    expect(await session.json()).toBeNull()
  })
})
