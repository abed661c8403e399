import { describe, expect, it } from 'vitest'
import { auditActorOf } from '@/lib/audit/audit-actor'
import { auditDocument } from '@/lib/audit/audit-document'
import { changedPaths } from '@/lib/client/audit-api'

describe('auditActorOf', () => {
  it('keeps user, token and agent callers with their id', () => {
    expect(auditActorOf({ kind: 'token', id: 'tok_1', name: 'ci', roles: ['operator'], via: 'bearer' })).toEqual({ kind: 'token', id: 'tok_1', name: 'ci' })
    expect(auditActorOf({ kind: 'user', id: 'u1', name: 'ana', roles: ['admin'], via: 'session' })).toEqual({ kind: 'user', id: 'u1', name: 'ana' })
    expect(auditActorOf({ kind: 'agent', id: 'c1', name: 'gw/agent-a', roles: [], via: 'bearer' })).toEqual({ kind: 'agent', id: 'c1', name: 'gw/agent-a' })
  })
})

describe('auditDocument', () => {
  it('is the manifest envelope and spec, without table columns', () => {
    const row = {
      id: 'x',
      apiVersion: 'toolroom.dev/v1alpha1',
      namespace: 'ns',
      name: 'n',
      labels: { a: '1' },
      annotations: {},
      spec: { type: 'opaque', keys: ['k'] },
      ciphertext: new Uint8Array(),
      generation: 3,
    }
    expect(auditDocument('Secret', row)).toEqual({
      apiVersion: 'toolroom.dev/v1alpha1',
      kind: 'Secret',
      metadata: { name: 'n', namespace: 'ns', labels: { a: '1' }, annotations: {} },
      spec: { type: 'opaque', keys: ['k'] },
    })
  })
})

describe('changedPaths', () => {
  it('names the changed fields two levels deep', () => {
    const before = { metadata: { labels: {}, name: 'a' }, spec: { description: 'x', type: 'rest' } }
    const after = { metadata: { labels: { t: '1' }, name: 'a' }, spec: { description: 'y', type: 'rest', level: 'read_only' } }
    expect(changedPaths(before, after)).toEqual(['metadata.labels', 'spec.description', 'spec.level'])
    expect(changedPaths(before, before)).toEqual([])
  })
})
