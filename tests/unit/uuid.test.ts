// The one shape that tells an id from a name (lib/refs/uuid.ts): every address, cursor and call id is
// read through it, so a name that slips through as an id, or an id read as a name, starts here.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { isUuid } from '@/lib/refs/uuid'

describe('isUuid', () => {
  it('takes every UUID in its canonical form, in either case', () => {
    fc.assert(
      fc.property(fc.uuid(), (id) => {
        expect(isUuid(id)).toBe(true)
        expect(isUuid(id.toUpperCase())).toBe(true)
      }),
    )
    expect(isUuid(crypto.randomUUID())).toBe(true)
  })

  it('refuses names, other spellings of a UUID, and a UUID with anything around it', () => {
    const id = '0b000000-0000-4000-8000-000000000001'
    for (const text of [
      '',
      'agent-1',
      id.replaceAll('-', ''),
      `{${id}}`,
      `urn:uuid:${id}`,
      `${id}\n`,
      `\n${id}`,
      ` ${id}`,
      `${id}0`,
      id.slice(1),
      id.replace('b', 'g'),
      `${id}/x`,
    ])
      expect(isUuid(text), JSON.stringify(text)).toBe(false)
  })

  it('refuses any UUID with one character changed to a non-hex character', () => {
    fc.assert(
      fc.property(
        fc.uuid(),
        fc.nat(35),
        fc.string({ minLength: 1, maxLength: 1, unit: 'binary' }).filter((c) => !/[0-9a-f-]/i.test(c)),
        (id, at, c) => {
          expect(isUuid(id.slice(0, at) + c + id.slice(at + 1))).toBe(false)
        },
      ),
    )
  })
})
