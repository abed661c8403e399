import { describe, expect, it } from 'vitest'
import { auditActorOf } from '@/lib/audit/audit-actor'
import { auditDocument } from '@/lib/audit/audit-document'
import { decodeAuditCursor, encodeAuditCursor } from '@/lib/audit/list-audit-events'
import { changedPaths } from '@/lib/client/audit'

describe('auditActorOf', () => {
  it('keeps user and token callers with their id, and records the anonymous local operator as a user', () => {
    expect(auditActorOf({ kind: 'token', id: 'tok_1', name: 'ci', roles: ['operator'] } as never)).toEqual({ kind: 'token', id: 'tok_1', name: 'ci' })
    expect(auditActorOf({ kind: 'user', name: 'ana', roles: ['admin'] })).toEqual({ kind: 'user', id: null, name: 'ana' })
    expect(auditActorOf({ kind: 'anonymous', name: 'local-operator', roles: ['admin'] })).toEqual({ kind: 'user', id: null, name: 'local-operator' })
  })
})

describe('auditDocument', () => {
  it('is the manifest envelope and spec, without table columns', () => {
    const row = { id: 'x', apiVersion: 'toolroom.dev/v1alpha1', namespace: 'ns', name: 'n', labels: { a: '1' }, annotations: {}, spec: { type: 'opaque', keys: ['k'] }, ciphertext: new Uint8Array(), generation: 3 }
    expect(auditDocument('Secret', row)).toEqual({ apiVersion: 'toolroom.dev/v1alpha1', kind: 'Secret', metadata: { name: 'n', namespace: 'ns', labels: { a: '1' }, annotations: {} }, spec: { type: 'opaque', keys: ['k'] } })
  })
})

describe('audit cursors', () => {
  it('round-trip ids and refuse anything else with a BAD_REQUEST naming the cursor', () => {
    expect(decodeAuditCursor(encodeAuditCursor(12345678901234n))).toBe(12345678901234n)
    for (const bad of ['', 'abc', Buffer.from('audit:-1').toString('base64url'), Buffer.from('audit:1;drop').toString('base64url')])
      expect(() => decodeAuditCursor(bad)).toThrow(expect.objectContaining({ code: 'BAD_REQUEST', errors: [expect.objectContaining({ field: 'cursor' })] }))
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
