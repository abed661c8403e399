import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { fieldOf, findInexactNumber } from '@/lib/json/exact-numbers'

describe('numbers JSON cannot carry as sent', () => {
  it('are found by rule and path, strings and escaped quotes skipped', () => {
    expect(findInexactNumber('{"a":[1,2,{"b\\"":1e400}]}')).toMatchObject({ rule: 'number-range', path: ['a', 2, 'b"'] })
    expect(findInexactNumber('{"s":"1e400 \\" 99999999999999999999","y":[0.5,-0,1e-400]}')).toMatchObject({ rule: 'number-range', path: ['y', 2] })
    expect(findInexactNumber('[9007199254740991,-9007199254740993]')).toMatchObject({ rule: 'number-precision', path: [1] })
    // Beyond 2^53 but a double's shortest form: sent on as written (a property run on Node 24 found it refused).
    expect(findInexactNumber('{"n":-124984526335078820}')).toBeNull()
    expect(findInexactNumber('{"ok":[1.5e300,123.456,0.000,-0,1e20,100000000000000000000,"x",true,null]}')).toBeNull()
    expect(fieldOf(['arguments', 'items', 2, 'price'])).toBe('arguments.items[2].price')
    expect(fieldOf([])).toBe('(body)')
  })

  it('are exactly the literals JSON.parse does not give back as written', () => {
    fc.assert(
      fc.property(fc.oneof(fc.integer(), fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }), fc.double({ noNaN: true, noDefaultInfinity: true })), (n) => {
        const literal = String(n)
        const found = findInexactNumber(`{"n":${literal}}`)
        // A literal is refused exactly when what is sent on (the parsed double, written again) is not
        // the literal: never a double's shortest form, some integers beyond 2^53.
        expect(found !== null, literal).toBe(JSON.stringify(JSON.parse(literal)) !== literal)
        if (typeof n !== 'bigint') expect(found).toBeNull()
      }),
    )
  })
})
