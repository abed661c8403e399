// Single sign-on, configured by environment only: the provider's discovery document comes from a
// real local HTTP server, better-auth's generic OAuth plugin reads it, and the sign-in page shows
// the button. (A full login round trip needs a real identity provider; this stops at the redirect.)
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { renderToString } from 'react-dom/server'
import { createElement } from 'react'
import { SignInForm } from '@/components/access/sign-in-form'
import { createAuth } from '@/lib/auth/better-auth'
import { oidcButton } from '@/lib/auth/oidc-config'
import { reloadConfig } from '@/lib/config'

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
    const { authHandler } = await import('@/lib/auth/auth-handler')
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
