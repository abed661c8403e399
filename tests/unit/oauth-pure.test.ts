// MCP authorization's pure rules: where sign-in sends a person back to during an authorization, and
// which redirect URIs an admin may register for a client.
import { describe, expect, it } from 'vitest'
import { authorizeContinuation } from '@/lib/oauth/authorize-continuation'
import { clientIdOf } from '@/lib/oauth/limit-token-failures'
import { redirectUriProblem } from '@/lib/oauth/manage-oauth-clients'

describe('authorizeContinuation', () => {
  it('goes back to the authorization endpoint with the request, without the signature or prompt=login', () => {
    const next = authorizeContinuation(
      new URLSearchParams('client_id=abc&redirect_uri=http%3A%2F%2F127.0.0.1%2Fcb&prompt=login+consent&sig=x&exp=1&ba_iat=2&ba_param=a&ba_param=b&state=s'),
    )
    expect(next).toBe('/api/auth/oauth2/authorize?client_id=abc&redirect_uri=http%3A%2F%2F127.0.0.1%2Fcb&prompt=consent&state=s')
  })

  it('is nothing for a sign-in that no authorization sent, or one without the signature', () => {
    expect(authorizeContinuation(new URLSearchParams('error=x'))).toBeNull()
    expect(authorizeContinuation(new URLSearchParams('client_id=abc'))).toBeNull()
  })

  it('also carries on an unsigned authorization request (sent to sign in before its resource was served)', () => {
    expect(authorizeContinuation(new URLSearchParams('client_id=abc&response_type=code&resource=http%3A%2F%2Fh%2Fmcp'))).toBe(
      '/api/auth/oauth2/authorize?client_id=abc&response_type=code&resource=http%3A%2F%2Fh%2Fmcp',
    )
  })

  it('never leaves its own path, whatever the parameters say', () => {
    const next = authorizeContinuation(new URLSearchParams('client_id=//evil.example&sig=x&redirect_uri=https://evil.example'))!
    expect(new URL(next, 'http://toolroom.test').origin).toBe('http://toolroom.test')
    expect(new URL(next, 'http://toolroom.test').pathname).toBe('/api/auth/oauth2/authorize')
  })
})

describe('redirectUriProblem', () => {
  it('takes https anywhere and http on loopback hosts only', () => {
    for (const ok of ['https://app.example.com/cb', 'http://127.0.0.1:53682/callback', 'http://localhost/cb', 'http://[::1]:8080/cb'])
      expect(redirectUriProblem(ok)).toBeNull()
    expect(redirectUriProblem('http://app.example.com/cb')).toMatch(/https/)
    expect(redirectUriProblem('javascript:alert(1)')).toMatch(/https/)
    expect(redirectUriProblem('https://app.example.com/cb#frag')).toMatch(/fragment/)
    expect(redirectUriProblem('https://user:pw@app.example.com/cb')).toMatch(/credentials/)
    expect(redirectUriProblem('not a url')).toMatch(/not a URL/)
  })
})

describe('clientIdOf (whose allowance a token request uses)', () => {
  const basic = (user: string, secret = 'trc_x') => new Headers({ authorization: `Basic ${Buffer.from(`${user}:${secret}`).toString('base64')}` })
  it('reads HTTP Basic first, form-decoded, so one client has one allowance however its id is spelled', () => {
    expect(clientIdOf(basic('abc'), 'client_id=other')).toBe('abc')
    expect(clientIdOf(basic('a%62c'), '')).toBe('abc')
    expect(clientIdOf(basic('a+b'), '')).toBe('a b')
  })

  it("then the body's client_id, then a client assertion's issuer, else nobody", () => {
    expect(clientIdOf(new Headers(), 'grant_type=authorization_code&client_id=pub')).toBe('pub')
    const assertion = ['e30', Buffer.from(JSON.stringify({ iss: 'jwt-client' })).toString('base64url'), 'sig'].join('.')
    expect(clientIdOf(new Headers(), `client_assertion=${assertion}`)).toBe('jwt-client')
    expect(clientIdOf(new Headers(), 'client_assertion=not.a-jwt')).toBe('')
    expect(clientIdOf(new Headers({ authorization: 'Basic %%%' }), '')).toBe('')
  })
})
