// How specs' references are read (lib/refs/resource-ref.ts): the one reading every resolver,
// reader, link and check uses.
import { describe, expect, it } from 'vitest'
import { parseRef, qualifyRef } from '@/lib/refs/resource-ref'

describe('resource references', () => {
  it("reads a bare name in the referrer's namespace, and namespace/name in the one it names", () => {
    expect(parseRef('github', 'platform')).toEqual({ namespace: 'platform', name: 'github' })
    expect(parseRef('tools/github', 'platform')).toEqual({ namespace: 'tools', name: 'github' })
    expect(qualifyRef('github', 'platform')).toBe('platform/github')
    expect(qualifyRef('tools/github', 'platform')).toBe('tools/github')
  })
  it('keeps a name with dots whole, and splits at the first slash only', () => {
    expect(parseRef('zendesk.create_ticket', 'support')).toEqual({ namespace: 'support', name: 'zendesk.create_ticket' })
    expect(parseRef('a/b/c', 'x')).toEqual({ namespace: 'a', name: 'b/c' })
  })
})
