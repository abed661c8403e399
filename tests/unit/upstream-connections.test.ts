// Connected upstreams, the pure parts (docs/design/gateway.md, "Connected upstreams"): what a
// LanguageTool's manifest may say, which metadata is believed, where a browser and tokens may be
// sent, what a connection was made for, and how a missing or refused one is told.
import { describe, expect, it } from 'vitest'
import { validateDocument } from '@/lib/manifests/validate-document'
import {
  connectionConfigKey,
  connectionStateOf,
  describeConnectionNeed,
  describePersonConnectionNeed,
  isAcceptableAuthorizationUrl,
  resourceMatches,
  type StoredConnection,
} from '@/lib/upstream-auth/upstream-connection-rules'

const languageTool = (oauth2: Record<string, unknown>) => ({
  apiVersion: 'toolroom.dev/v1alpha1',
  kind: 'LanguageTool',
  metadata: { name: 'gh', namespace: 'ops' },
  spec: { endpoint: 'https://gh.example.com/mcp', auth: { type: 'oauth2', oauth2 } },
})
const problems = (raw: unknown) => validateDocument(raw, 0).errors.map((e) => `${e.field} ${e.rule}`)

describe('auth.oauth2.grantType: authorization_code on a LanguageTool', () => {
  it('is accepted bare (dynamic registration) or with a pre-registered client and scopes', () => {
    expect(problems(languageTool({ grantType: 'authorization_code' }))).toEqual([])
    expect(
      problems(languageTool({ grantType: 'authorization_code', clientId: 'toolroom', clientSecretRef: { name: 'mcp-client' }, scopes: ['tools.read'] })),
    ).toEqual([])
  })

  it('names each mistake by field and rule', () => {
    expect(problems(languageTool({ grantType: 'authorization_code', clientSecretRef: { name: 'x' } }))).toEqual([
      'spec.auth.oauth2.clientSecretRef not-allowed',
    ])
    expect(problems(languageTool({ grantType: 'authorization_code', issuer: 'https://idp.example.com' }))).toEqual(['spec.auth.oauth2.issuer unknown-field'])
    expect(problems(languageTool({ grantType: 'authorization_code', scopes: ['has space'] }))).toEqual(['spec.auth.oauth2.scopes[0] format'])
  })
})

describe('protected-resource metadata (RFC 9728 §3.3)', () => {
  it("is believed when its resource is the server's URL or a same-origin prefix of its path", () => {
    expect(resourceMatches('https://mcp.example.com/mcp', 'https://mcp.example.com/mcp')).toBe(true)
    expect(resourceMatches('https://mcp.example.com/mcp', 'https://mcp.example.com/')).toBe(true)
    expect(resourceMatches('https://mcp.example.com/mcp', 'https://mcp.example.com')).toBe(true)
    expect(resourceMatches('https://mcp.example.com/team/a/mcp', 'https://mcp.example.com/team/a')).toBe(true)
  })

  it('is refused when it describes another server, another path or another scheme', () => {
    expect(resourceMatches('https://mcp.example.com/mcp', 'https://elsewhere.example/mcp')).toBe(false)
    expect(resourceMatches('https://mcp.example.com/mcp', 'http://mcp.example.com/mcp')).toBe(false)
    expect(resourceMatches('https://mcp.example.com/mcp', 'https://mcp.example.com:8443/mcp')).toBe(false)
    expect(resourceMatches('https://mcp.example.com/team/a/mcp', 'https://mcp.example.com/team/ab')).toBe(false)
    expect(resourceMatches('https://mcp.example.com/mcp', 'https://mcp.example.com/mcp/other')).toBe(false)
    expect(resourceMatches('https://mcp.example.com/mcp', 'https://mcp.example.com/mcp#x')).toBe(false)
    expect(resourceMatches('https://mcp.example.com/mcp', 'not a url')).toBe(false)
  })
})

describe('where an authorization server may send a browser and receive tokens', () => {
  it('is https, or http on a loopback address', () => {
    for (const url of [
      'https://as.example.com',
      'https://as.example.com/oauth/token',
      'http://127.0.0.1:9000',
      'http://localhost:9000/authorize',
      'http://[::1]:9000',
    ])
      expect(isAcceptableAuthorizationUrl(url), url).toBe(true)
  })

  it('is not plain http elsewhere, another scheme, credentials in the URL, a fragment, or not a string', () => {
    for (const url of [
      'http://as.example.com',
      'javascript:alert(1)',
      'ftp://as.example.com',
      'https://user:pw@as.example.com',
      'https://as.example.com/#x',
      'http://127.0.0.1.nip.io',
    ])
      expect(isAcceptableAuthorizationUrl(url), url).toBe(false)
    expect(isAcceptableAuthorizationUrl(42)).toBe(false)
    expect(isAcceptableAuthorizationUrl(`https://as.example.com/${'a'.repeat(3000)}`)).toBe(false)
  })
})

describe('what a connection was made for', () => {
  const base = { grantType: 'authorization_code' as const, scopes: ['a', 'b'] }
  it('is another connection for another endpoint, client or scopes; the same for the same scopes in another order', () => {
    const key = connectionConfigKey('https://mcp.example.com/mcp', base)
    expect(connectionConfigKey('https://mcp.example.com/mcp', { ...base, scopes: ['b', 'a', 'a'] })).toBe(key)
    expect(connectionConfigKey('https://mcp.example.com/v2/mcp', base)).not.toBe(key)
    expect(connectionConfigKey('https://mcp.example.com/mcp', { ...base, clientId: 'toolroom' })).not.toBe(key)
    expect(connectionConfigKey('https://mcp.example.com/mcp', { ...base, scopes: ['a'] })).not.toBe(key)
  })
})

describe('the condition of a server that needs an operator', () => {
  it('says what to do', () => {
    expect(describeConnectionNeed('not_connected', null, null)).toBe('needs connecting: an operator connects it from its page')
    expect(describeConnectionNeed('reconnect', 'invalid_grant', 'grant request is invalid')).toBe(
      'reconnect: the authorization server no longer accepts its refresh token (the authorization server answered invalid_grant: grant request is invalid); an operator reconnects it from its page',
    )
    expect(describeConnectionNeed('changed', null, null)).toMatch(/^needs connecting again: /)
  })
})

describe("where a connection stands (an operator's or a person's)", () => {
  const stored = (more: Partial<StoredConnection> = {}): StoredConnection => ({
    configKey: 'k1',
    ciphertext: new Uint8Array([1]),
    error: null,
    errorDescription: null,
    authorizationServer: 'https://as.example',
    ...more,
  })
  const operator = describeConnectionNeed
  const person = (need: Parameters<typeof describeConnectionNeed>[0], error: string | null, description: string | null) =>
    need === 'not_connected' ? null : describePersonConnectionNeed(need, 'you', error, description)

  it('is not connected without a row, worded for its reader', () => {
    expect(connectionStateOf(null, 'k1', operator)).toEqual({ state: 'not_connected', message: describeConnectionNeed('not_connected', null, null) })
    expect(connectionStateOf(null, 'k1', person)).toEqual({ state: 'not_connected', message: null })
  })

  it('needs a reconnect when made for another endpoint or client, or once its tokens are gone', () => {
    expect(connectionStateOf(stored({ configKey: 'k0' }), 'k1', operator)).toEqual({
      state: 'reconnect',
      message: describeConnectionNeed('changed', null, null),
    })
    const refused = stored({ ciphertext: null, error: 'invalid_grant', errorDescription: 'grant revoked' })
    expect(connectionStateOf(refused, 'k1', person)).toEqual({
      state: 'reconnect',
      message: describePersonConnectionNeed('reconnect', 'you', 'invalid_grant', 'grant revoked'),
    })
    // A changed configuration is said first: reconnecting mends both.
    expect(connectionStateOf({ ...refused, configKey: 'k0' }, 'k1', operator).message).toBe(describeConnectionNeed('changed', null, null))
  })

  it("is connected while it has tokens, with its last refresh's failure if that failed", () => {
    expect(connectionStateOf(stored(), 'k1', operator)).toEqual({ state: 'connected', message: null })
    const failing = connectionStateOf(stored({ error: 'unreachable', errorDescription: null }), 'k1', person)
    expect(failing.state).toBe('connected')
    expect(failing.message).toMatch(/^the authorization server https:\/\/as\.example /)
  })
})
