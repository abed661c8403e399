// OAuth credentials to upstreams, the pure parts: what a manifest may say (validated at apply), which
// credential a token belongs to, when it is replaced, and the TokenIssued condition.
import { describe, expect, it } from 'vitest'
import type { ToolSpec } from '@/lib/manifests/specs/tool'
import { validateDocument } from '@/lib/manifests/validate-document'
import { observeToolConditions, phaseOf, type ToolFacts } from '@/lib/tools/tool-conditions'
import { upstreamTokenKey } from '@/lib/upstream-auth/upstream-token-key'
import { describeTokenFailure, tokenTimes } from '@/lib/upstream-auth/upstream-token-rules'

const TR = 'toolroom.dev/v1alpha1'
const oauth2 = {
  grantType: 'client_credentials',
  issuer: 'https://idp.example.com',
  clientId: 'toolroom',
  clientSecretRef: { name: 'idp-client' },
  scopes: ['tickets.write'],
  resource: 'https://api.example.com',
}
const restTool = (auth: unknown, namespace = 'ops') => ({
  apiVersion: TR,
  kind: 'Tool',
  metadata: { name: 'tickets.create', namespace },
  spec: { type: 'rest', description: 'x', inputSchema: { type: 'object' }, endpoint: { method: 'POST', url: 'https://api.example.com/tickets', auth } },
})
const languageTool = (spec: Record<string, unknown>) => ({
  apiVersion: TR,
  kind: 'LanguageTool',
  metadata: { name: 'gh', namespace: 'ops' },
  spec: { endpoint: 'https://gh.example.com/mcp', ...spec },
})
const problems = (raw: unknown) => validateDocument(raw, 0).errors.map((e) => `${e.field} ${e.rule}`)

describe('auth: {type: oauth2} in manifests', () => {
  it('is accepted on a REST Tool and a LanguageTool', () => {
    expect(problems(restTool({ type: 'oauth2', oauth2 }))).toEqual([])
    expect(problems(restTool({ type: 'oauth2', oauth2: { ...oauth2, issuer: undefined, tokenUrl: 'https://idp.example.com/oauth/token' } }))).toEqual([])
    expect(problems(languageTool({ auth: { type: 'oauth2', oauth2 } }))).toEqual([])
  })

  it('names each mistake by field and rule', () => {
    expect(problems(restTool({ type: 'oauth2' }))).toEqual(['spec.endpoint.auth.oauth2 required'])
    expect(problems(restTool({ type: 'bearer', secretRef: { name: 'x' }, oauth2 }))).toEqual(['spec.endpoint.auth.oauth2 not-allowed'])
    expect(problems(restTool({ type: 'oauth2', secretRef: { name: 'x' }, oauth2 }))).toEqual(['spec.endpoint.auth.secretRef not-allowed'])
    expect(problems(restTool({ type: 'oauth2', oauth2: { ...oauth2, issuer: undefined } }))).toEqual(['spec.endpoint.auth.oauth2.issuer required'])
    expect(problems(restTool({ type: 'oauth2', oauth2: { ...oauth2, tokenUrl: 'https://idp.example.com/token' } }))).toEqual([
      'spec.endpoint.auth.oauth2.tokenUrl not-allowed',
    ])
    expect(problems(restTool({ type: 'oauth2', oauth2: { ...oauth2, grantType: 'password' } }))).toHaveLength(1)
    expect(problems(restTool({ type: 'oauth2', oauth2: { ...oauth2, scopes: ['two words'] } }))).toHaveLength(1)
    expect(problems(restTool({ type: 'oauth2', oauth2: { ...oauth2, resource: 'https://api.example.com/#x' } }))).toHaveLength(1)
    expect(problems(languageTool({ auth: { type: 'oauth2', oauth2 }, authHeaders: [{ name: 'Authorization', secretRef: { name: 'gh' } }] }))).toEqual([
      'spec.authHeaders[0].name not-allowed',
    ])
  })

  it("holds the client secret to the referrer's namespace, as every secretRef", () => {
    const elsewhere = { ...oauth2, clientSecretRef: { name: 'finance/idp-client' } }
    expect(problems(restTool({ type: 'oauth2', oauth2: elsewhere }))).toEqual(['spec.endpoint.auth.oauth2.clientSecretRef.name secret-namespace'])
    expect(problems(languageTool({ auth: { type: 'oauth2', oauth2: elsewhere } }))).toEqual(['spec.auth.oauth2.clientSecretRef.name secret-namespace'])
  })
})

describe('upstream tokens', () => {
  const client = oauth2 as Parameters<typeof upstreamTokenKey>[1]
  it('share a key only when they would be the same token', () => {
    expect(upstreamTokenKey('ops', client)).toBe(upstreamTokenKey('ops', { ...client, scopes: ['tickets.write', 'tickets.write'] }))
    for (const other of [
      { ...client, scopes: ['tickets.read'] },
      { ...client, resource: 'https://other.example.com' },
      { ...client, clientId: 'someone' },
      { ...client, clientSecretRef: { name: 'idp-client', key: 'b' } },
      { ...client, issuer: 'https://idp2.example.com' },
    ])
      expect(upstreamTokenKey('ops', other)).not.toBe(upstreamTokenKey('ops', client))
    expect(upstreamTokenKey('team', client)).not.toBe(upstreamTokenKey('ops', client))
  })

  it('are replaced a tenth of their lifetime and a second early, at most a minute, and last five minutes when the server did not say', () => {
    expect(tokenTimes(0, 3600)).toEqual({ expiresAt: new Date(3_600_000), refreshAt: new Date(3_540_000) })
    expect(tokenTimes(0, 10)).toEqual({ expiresAt: new Date(10_000), refreshAt: new Date(8_000) })
    expect(tokenTimes(0, undefined)).toEqual({ expiresAt: new Date(300_000), refreshAt: new Date(269_000) })
  })

  it("tell the server's refusal apart from no answer", () => {
    expect(describeTokenFailure('invalid_client', 'client authentication failed', 'https://idp.example.com')).toBe(
      'the authorization server https://idp.example.com refused the token request: invalid_client: client authentication failed',
    )
    expect(describeTokenFailure('unreachable', 'connect ECONNREFUSED', 'https://idp.example.com')).toBe(
      'the authorization server https://idp.example.com could not be reached: connect ECONNREFUSED',
    )
  })
})

describe('the TokenIssued condition', () => {
  const spec = restTool({ type: 'oauth2', oauth2 }).spec as unknown as ToolSpec
  const facts = (more: Partial<ToolFacts>): ToolFacts => ({
    namespace: 'ops',
    name: 'tickets.create',
    spec,
    osToolsEnabled: false,
    recent: { calls: 0, failures: 0 },
    endpoint: { allowed: true, how: 'allowed' },
    secret: { found: true, keys: ['secret'] },
    ...more,
  })
  const of = (f: ToolFacts) => Object.fromEntries(observeToolConditions(f).map((c) => [c.type, `${c.status} ${c.reason}`]))

  it("checks the client secret's Secret, and says how the last token request went once there was one", () => {
    expect(of(facts({ secret: { found: false } }))).toMatchObject({ SecretAvailable: 'False SecretNotFound' })
    expect(of(facts({}))).not.toHaveProperty('TokenIssued')
    expect(of(facts({ token: { issued: true } }))).toMatchObject({ TokenIssued: 'True TokenIssued' })
    const refused = facts({ token: { issued: false, error: 'invalid_client', description: null } })
    expect(of(refused)).toMatchObject({ TokenIssued: 'False TokenRefused' })
    expect(observeToolConditions(refused).find((c) => c.type === 'TokenIssued')!.message).toContain('invalid_client')
    expect(phaseOf(observeToolConditions(refused))).toBe('Failed')
    expect(of(facts({ token: { issued: false, error: 'unreachable', description: 'connect ECONNREFUSED' } }))).toMatchObject({
      TokenIssued: 'False ServerUnreachable',
    })
  })
})
