import { describe, expect, it } from 'vitest'
import { resolveSecretRef, secretRefProblem, SecretRefError, secretRefsOf } from '@/lib/secrets/secret-ref'

describe('secretRef namespace rule', () => {
  it('resolves a bare name and an explicit own namespace in the referrer namespace', () => {
    expect(resolveSecretRef('token', 'ops')).toEqual({ namespace: 'ops', name: 'token' })
    expect(resolveSecretRef('ops/token', 'ops')).toEqual({ namespace: 'ops', name: 'token' })
    expect(secretRefProblem('ops/token', 'ops')).toBeNull()
  })

  it('refuses every other namespace', () => {
    expect(secretRefProblem('finance/stripe-secret-key', 'ops')).toMatch(/own namespace \("ops"\), not "finance"/)
    expect(() => resolveSecretRef('finance/stripe-secret-key', 'ops')).toThrow(SecretRefError)
    expect(() => resolveSecretRef('default/token', 'ops')).toThrow(SecretRefError)
  })

  it('finds every reference a spec holds, with its field', () => {
    expect(secretRefsOf('Tool', { endpoint: { auth: { type: 'bearer', secretRef: { name: 'a/b' } } } })).toEqual([
      { field: 'spec.endpoint.auth.secretRef.name', name: 'a/b' },
    ])
    expect(
      secretRefsOf('LanguageTool', {
        authHeaders: [
          { name: 'X', secretRef: { name: 'x' } },
          { name: 'Y', secretRef: { name: 'n/y' } },
        ],
      }),
    ).toEqual([
      { field: 'spec.authHeaders[0].secretRef.name', name: 'x' },
      { field: 'spec.authHeaders[1].secretRef.name', name: 'n/y' },
    ])
    expect(secretRefsOf('Agent', { grants: ['a/b'] })).toEqual([])
  })
})
