// What a registry announcement's payload may narrow (docs/design/effective-tools.md#caching): only a
// JSON array of well-formed subjects is a scope; anything else, whoever sent it, means everyone.
import { describe, expect, it } from 'vitest'
import { changeOf, EVERYONE, joinScopes, scopeOfPayload, touches } from '@/lib/registry/registry-changes'

const agent = 'Agent:0b9f6a52-3a0e-4c57-9d3c-6f2c3f1e8a11'

describe('the scope of a registry announcement', () => {
  it('names the agents and units of a well-formed payload', () => {
    const scope = scopeOfPayload(JSON.stringify([agent, 'Unit:fleet/north']))
    expect(scope).toEqual(changeOf([agent, 'Unit:fleet/north']))
    expect(touches(scope, new Set(['Unit:fleet/north']))).toBe(true)
    expect(touches(scope, new Set(['Unit:fleet/south']))).toBe(false)
  })

  it.each([
    ['a revision number (the other tables)', '4711'],
    ['no payload', undefined],
    ['an empty payload', ''],
    ['an empty array', '[]'],
    ['broken JSON', '["Unit:fleet/north"'],
    ['not an array', '{"subjects":["Unit:fleet/north"]}'],
    ['a non-string subject', '[1]'],
    ['an unknown kind', '["Tool:fleet/acme.lookup"]'],
    ['an agent by name', '["Agent:fleet/triage"]'],
    ['a unit without its namespace', '["Unit:north"]'],
    ['a unit with a nested path', '["Unit:fleet/north/../south"]'],
    ['one bad subject among good ones', JSON.stringify([agent, 'Unit:fleet north'])],
  ])('means everyone for %s', (_, payload) => {
    expect(scopeOfPayload(payload)).toEqual(EVERYONE)
  })

  it('touches everything for everyone, and whatever it cannot tell the dependencies of', () => {
    expect(touches(EVERYONE, new Set([agent]))).toBe(true)
    expect(touches(changeOf(['Unit:fleet/north']), null)).toBe(true)
  })

  it('joins scopes: everyone absorbs the rest', () => {
    expect(joinScopes(null, changeOf([agent]))).toEqual(changeOf([agent]))
    expect(joinScopes(changeOf([agent]), changeOf(['Unit:fleet/north']))).toEqual(changeOf([agent, 'Unit:fleet/north']))
    expect(joinScopes(changeOf([agent]), EVERYONE)).toEqual(EVERYONE)
    expect(joinScopes(EVERYONE, changeOf([agent]))).toEqual(EVERYONE)
  })
})
