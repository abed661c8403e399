// If-None-Match as RFC 9110 §13.1.2 reads it (lib/http/if-none-match.ts): `*` or a list of entity tags
// compared weakly; anything else is malformed and ignored (the request is answered as if unconditional).
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { matchesAny, parseIfNoneMatch } from '@/lib/http/if-none-match'

describe('If-None-Match', () => {
  it('reads *, one tag, and a list of weak and strong tags with empty elements and spaces', () => {
    expect(parseIfNoneMatch('*')).toEqual({ any: true })
    expect(parseIfNoneMatch(' W/"abc" ')).toEqual({ any: false, opaqueTags: ['abc'] })
    expect(parseIfNoneMatch('"a", W/"b",,\t"c" ,')).toEqual({ any: false, opaqueTags: ['a', 'b', 'c'] })
    expect(parseIfNoneMatch('""')).toEqual({ any: false, opaqueTags: [''] })
  })

  it('keeps a comma inside a tag, which splitting on commas would break', () => {
    expect(parseIfNoneMatch('"a,b", W/"c"')).toEqual({ any: false, opaqueTags: ['a,b', 'c'] })
  })

  it('ignores a malformed field whole: no tag is taken from it', () => {
    for (const malformed of ['', ' ', ',', 'garbage', 'W/', 'w/"a"', '"unterminated', '"a"b"', '"a" "b"', '*, "a"', '"a", garbage', '"a\u0001"', '"a b"']) {
      expect(parseIfNoneMatch(malformed), JSON.stringify(malformed)).toBeNull()
    }
    expect(parseIfNoneMatch(null)).toBeNull()
  })

  it('compares weakly: a tag matches in its weak and its strong form, and nothing else does', () => {
    const condition = parseIfNoneMatch('"x", "abc"')!
    expect(matchesAny(condition, 'W/"abc"')).toBe(true)
    expect(matchesAny(condition, '"abc"')).toBe(true)
    expect(matchesAny(condition, 'W/"ab"')).toBe(false)
    expect(matchesAny({ any: true }, 'W/"anything"')).toBe(true)
  })

  it('reads back every list of tags it could be sent, and never throws on any text', () => {
    const opaque = fc.stringMatching(/^[\x21\x23-\x7e]{0,12}$/)
    const tag = fc.tuple(fc.boolean(), opaque).map(([weak, o]) => ({ text: `${weak ? 'W/' : ''}"${o}"`, opaque: o }))
    fc.assert(
      fc.property(fc.array(tag, { minLength: 1, maxLength: 5 }), fc.constantFrom(',', ', ', ' ,\t'), (tags, separator) => {
        expect(parseIfNoneMatch(tags.map((t) => t.text).join(separator))).toEqual({ any: false, opaqueTags: tags.map((t) => t.opaque) })
      }),
    )
    fc.assert(fc.property(fc.string(), (text) => void parseIfNoneMatch(text)))
  })
})
