// URL templates of REST tools: an argument fills one segment and never moves the request (and its
// credential) elsewhere on the upstream. Examples, then properties over arbitrary text.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { buildRestRequest } from '@/lib/gateway/executors/rest'
import { ToolFailure } from '@/lib/gateway/tool-errors'
import { expandUrlTemplate, scopeOf, UrlTemplateError, urlTemplateProblems } from '@/lib/net/url-template'

const TEMPLATE = 'https://api.example/api/users/{id}/profile'
const expand = (id: unknown, template = TEMPLATE) => expandUrlTemplate(template, { id }).url

describe('URL templates', () => {
  it('keep every reserved character of a value inside its segment', () => {
    expect(expand('a/b').pathname).toBe('/api/users/a%2Fb/profile')
    expect(expand('%2f').pathname).toBe('/api/users/%252f/profile')
    expect(expand('x?y#z').href).toBe('https://api.example/api/users/x%3Fy%23z/profile')
    expect(expand('..\\..\\admin').pathname).toBe('/api/users/..%5C..%5Cadmin/profile')
    expect(expand('../..').pathname).toBe('/api/users/..%2F../profile')
    expect(expand('...').pathname).toBe('/api/users/.../profile')
    expect(expand(42).pathname).toBe('/api/users/42/profile')
  })

  it('refuse a value that would be read as an empty, current or parent segment', () => {
    for (const id of ['..', '.', '', undefined, null]) expect(() => expand(id), String(id)).toThrow(UrlTemplateError)
    // `.%2e` in the template plus "." from the argument makes a parent segment too
    expect(() => expandUrlTemplate('https://h/a/.%2e{x}/b', { x: '' })).toThrow(/cannot be empty, "." or ".."/)
    expect(() => expandUrlTemplate('https://h/a/%2e{x}/b', { x: '.' })).toThrow(UrlTemplateError)
    expect(expandUrlTemplate('https://h/a/{x}.json', { x: '.' }).url.pathname).toBe('/a/..json')
  })

  it('refuse lone surrogates instead of throwing URIError', () => {
    expect(() => expand('\ud800')).toThrow(/well-formed/)
  })

  it('encode query placeholders as one value, and never let them change the path', () => {
    const url = expandUrlTemplate('https://h/search?q={q}&x=1', { q: '../../a&b=c#d' }).url
    expect(url.pathname).toBe('/search')
    expect(url.searchParams.get('q')).toBe('../../a&b=c#d')
    expect(url.searchParams.get('b')).toBeNull()
  })

  it('refuse placeholders in the scheme, host or port', () => {
    expect(urlTemplateProblems('https://{tenant}.example/x')).toEqual([expect.stringMatching(/not in the scheme, host or port/)])
    expect(urlTemplateProblems('https://h:{port}/x')).toHaveLength(1)
    expect(urlTemplateProblems(TEMPLATE)).toEqual([])
    expect(scopeOf(TEMPLATE)).toEqual({ origin: 'https://api.example', pathPrefix: '/api/users/' })
    expect(scopeOf('https://h/a/v{n}/b')).toEqual({ origin: 'https://h', pathPrefix: '/a/' })
  })

  it('make the REST executor refuse the call as invalid arguments (-32602)', () => {
    const endpoint = { method: 'GET' as const, url: TEMPLATE }
    let thrown: unknown
    try {
      buildRestRequest(endpoint, { id: '..' })
    } catch (e) {
      thrown = e
    }
    expect(thrown).toBeInstanceOf(ToolFailure)
    expect(thrown).toMatchObject({ errorCode: 'url_template', rpcCode: -32602, detail: { argument: 'id' } })
    expect(buildRestRequest(endpoint, { id: 'a/b', q: 'z' })).toEqual({ url: 'https://api.example/api/users/a%2Fb/profile?q=z' })
  })
})

describe('URL template properties', () => {
  const anyText = fc.oneof(
    fc.string({ unit: 'grapheme', maxLength: 20 }),
    fc.string({ unit: fc.constantFrom('.', '/', '\\', '%', '2', 'f', 'e', '?', '#', '@', ':', ';', 'a'), maxLength: 12 }),
    fc.constantFrom('..', '.', '', '%2e%2e', '.%2e', '%2E.', '..%2f', '/..', '\\..', '@evil.example', '//evil.example'),
  )
  const templates = fc.constantFrom(TEMPLATE, 'http://127.0.0.1:8080/v1/{id}', 'https://h/a/b/{id}.json', 'https://h/{id}', 'https://h/x/{id}/{id}/y?z={id}')

  it('either refuse or stay on the origin and under the fixed prefix, with the value as one segment', () => {
    fc.assert(
      fc.property(templates, anyText, (template, id) => {
        let url: URL
        try {
          url = expandUrlTemplate(template, { id }).url
        } catch (e) {
          expect(e).toBeInstanceOf(UrlTemplateError)
          // refused only for what cannot be one safe segment
          const plain = template.includes('{id}.json') ? id + '.json' : id
          expect(['', '.', '..'].includes(plain.replace(/%2e/gi, '.')) || !id.isWellFormed()).toBe(true)
          return
        }
        const scope = scopeOf(template)
        expect(url.origin).toBe(scope.origin)
        expect(url.pathname.startsWith(scope.pathPrefix)).toBe(true)
        const expected = new URL(template.replaceAll('{id}', 'Zq'))
        expect(url.pathname.split('/').length).toBe(expected.pathname.split('/').length)
        // the value comes back, whole, from its segment
        const index = expected.pathname.split('/').findIndex((s) => s.startsWith('Zq'))
        expect(decodeURIComponent(url.pathname.split('/')[index])).toBe(template.includes('{id}.json') ? `${id}.json` : id)
      }),
      { numRuns: 2000 },
    )
  })

  it('are deterministic and never throw anything but UrlTemplateError', () => {
    fc.assert(
      fc.property(templates, fc.anything(), (template, id) => {
        let first: string | Error
        let second: string | Error
        try {
          first = expandUrlTemplate(template, { id }).url.href
        } catch (e) {
          first = e as Error
        }
        try {
          second = expandUrlTemplate(template, { id }).url.href
        } catch (e) {
          second = e as Error
        }
        if (first instanceof Error) expect(first).toBeInstanceOf(UrlTemplateError)
        expect(typeof first === 'string' ? first : first.message).toBe(typeof second === 'string' ? second : (second as Error).message)
      }),
      { numRuns: 1000 },
    )
  })
})
