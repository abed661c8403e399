import { describe, expect, it } from 'vitest'
import { isAllowed, scopesAllowedFor } from '@/lib/auth/access-rules'
import { authSettings } from '@/lib/auth/auth-settings'
import { oidcButton, oidcProvider } from '@/lib/auth/oidc-config'
import { parseConfig } from '@/lib/config'
import { contentSecurityPolicy } from '@/lib/http/security-headers'

describe('session and sign-in limits from the configuration', () => {
  it('has defaults and reads overrides', () => {
    expect(authSettings(parseConfig({}))).toEqual({ sessionSeconds: 12 * 3600, signInAttempts: 10, signInWindowSeconds: 300 })
    expect(authSettings(parseConfig({ TOOLROOM_SESSION_HOURS: '0.5', TOOLROOM_SIGNIN_ATTEMPTS: '3', TOOLROOM_SIGNIN_WINDOW_SECONDS: '60' }))).toEqual({
      sessionSeconds: 1800,
      signInAttempts: 3,
      signInWindowSeconds: 60,
    })
  })
  it('refuses nonsense', () => {
    expect(() => parseConfig({ TOOLROOM_SESSION_HOURS: 'forever' })).toThrow(/TOOLROOM_SESSION_HOURS must be a number from 0.01 to 8760, got "forever"/)
    expect(() => parseConfig({ TOOLROOM_SIGNIN_ATTEMPTS: '-1' })).toThrow(/TOOLROOM_SIGNIN_ATTEMPTS must be an integer from 1/)
  })
})

describe('OpenID Connect configuration', () => {
  it('is off without variables', () => {
    expect(oidcProvider(parseConfig({}))).toBeNull()
    expect(oidcButton(parseConfig({}))).toBeNull()
  })
  it('is read from the issuer, client id and secret', () => {
    const env = parseConfig({
      TOOLROOM_OIDC_ISSUER: 'https://login.example.com/realms/x/',
      TOOLROOM_OIDC_CLIENT_ID: 'toolroom',
      TOOLROOM_OIDC_CLIENT_SECRET: 's3cret',
      TOOLROOM_OIDC_NAME: 'Example SSO',
    })
    expect(oidcProvider(env)).toMatchObject({
      providerId: 'oidc',
      discoveryUrl: 'https://login.example.com/realms/x/.well-known/openid-configuration',
      clientId: 'toolroom',
      clientSecret: 's3cret',
      scopes: ['openid', 'email', 'profile'],
      pkce: true,
    })
    expect(oidcButton(env)).toEqual({ providerId: 'oidc', name: 'Example SSO' })
    expect(JSON.stringify(oidcButton(env))).not.toContain('s3cret')
  })
  it('says what is missing when half configured', () => {
    expect(() => parseConfig({ TOOLROOM_OIDC_ISSUER: 'https://x' })).toThrow(
      /TOOLROOM_OIDC_CLIENT_ID must be set too[^]*TOOLROOM_OIDC_CLIENT_SECRET must be set too/,
    )
  })
})

describe('access rules', () => {
  it('let a token do only what both its scopes and its owner’s role allow', () => {
    const token = (role: 'viewer' | 'operator' | 'admin', scopes: ('read' | 'write' | 'admin')[]) => ({
      kind: 'token' as const,
      id: 't',
      name: 't',
      roles: [role],
      scopes,
      via: 'bearer' as const,
    })
    expect(isAllowed(token('admin', ['read']), 'read')).toBe(true)
    expect(isAllowed(token('admin', ['read']), 'write')).toBe(false)
    expect(isAllowed(token('viewer', ['write']), 'write')).toBe(false)
    expect(isAllowed(token('operator', ['write']), 'write')).toBe(true)
    expect(isAllowed(token('admin', ['admin']), 'approve')).toBe(true)
    expect(isAllowed(token('admin', ['admin']), 'agent')).toBe(false)
    expect(scopesAllowedFor('viewer')).toEqual(['read'])
    expect(scopesAllowedFor('approver')).toEqual(['read', 'approve'])
  })
})

describe('content security policy', () => {
  it('allows scripts only with the nonce, no framing, no plugins', () => {
    const csp = contentSecurityPolicy('abc123')
    expect(csp).toContain("script-src 'self' 'nonce-abc123' 'strict-dynamic'")
    expect(csp).not.toContain('unsafe-eval')
    expect(csp).toContain("frame-ancestors 'none'")
    expect(csp).toContain("object-src 'none'")
    expect(contentSecurityPolicy('n', true)).toContain("'unsafe-eval'")
  })
})
