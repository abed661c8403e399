// The SSRF guard of every outbound request (lib/outbound): the allow-list, the refusals it types, and
// the checks made before a request is sent and after a name is resolved.
import { describe, expect, it } from 'vitest'
import { parseAddressPolicy } from '@/lib/net/address-policy'
import { checkTarget, resolvedRefusal } from '@/lib/outbound/guard'
import { OutboundError, outboundErrorOf } from '@/lib/outbound/outbound-error'
import { crossOriginHeaders, outboundHeaders } from '@/lib/outbound/request-headers'

describe('outbound address policy', () => {
  const policy = parseAddressPolicy('loopback,private,203.0.113.0/24,*.svc.cluster.local')
  it.each(['169.254.169.254', '169.254.0.1', 'fe80::1', 'fd00:ec2::254', '::ffff:169.254.169.254', '100.100.100.200', '0.0.0.0'])('always refuses %s', (a) =>
    expect(policy.refusal(a)).toMatchObject({ code: 'never-allowed', message: expect.stringMatching(/never allowed/) }),
  )
  it.each(['127.0.0.1', '::1', '10.1.2.3', '172.20.0.1', '192.168.1.1', '203.0.113.9'])('allows %s', (a) => expect(policy.refusal(a)).toBeNull())
  it.each(['8.8.8.8', '203.0.114.1', '2001:db8::1'])('refuses %s outside the allow-list', (a) =>
    expect(policy.refusal(a)).toMatchObject({ code: 'not-allowed', message: expect.stringMatching(/allow-list/) }),
  )
  it('refuses what is not an address', () => expect(policy.refusal('example.com')).toMatchObject({ code: 'not-an-address' }))
  it('allows host names by pattern', () => {
    expect(policy.allowsHostName('github.tools.svc.cluster.local')).toBe(true)
    expect(policy.allowsHostName('evil.example.com')).toBe(false)
  })
  it.each(['10.0.0.0/99', 'not a host!', '::1/200'])('refuses the malformed allow-list %s', (spec) =>
    expect(() => parseAddressPolicy(spec)).toThrow(/outbound allow-list/),
  )
})

describe('checks before a request is sent', () => {
  const policy = parseAddressPolicy('loopback')
  const refusalOf = (url: string) => {
    try {
      checkTarget(new URL(url), policy)
      return null
    } catch (e) {
      return e
    }
  }
  it('passes http(s) URLs with an allowed literal address, and host names (judged once resolved)', () => {
    for (const url of ['http://127.0.0.1:8080/x', 'https://[::1]/', 'http://upstream.example/mcp']) expect(refusalOf(url)).toBeNull()
  })
  it.each([
    ['file:///etc/passwd', 'scheme'],
    ['gopher://127.0.0.1/', 'scheme'],
    ['http://169.254.169.254/latest/meta-data', 'never-allowed'],
    ['http://[::ffff:169.254.169.254]/', 'never-allowed'],
    ['http://10.0.0.1/', 'not-allowed'],
    ['http://[fe80::1]/', 'never-allowed'],
  ])('refuses %s (%s)', (url, refusal) => {
    const error = refusalOf(url)
    expect(error).toBeInstanceOf(OutboundError)
    expect(error).toMatchObject({ failure: 'refused', refusal })
  })
})

describe('checks after a name is resolved', () => {
  it('refuses a name resolving outside the allow-list, naming the name and the address', () => {
    const refused = resolvedRefusal('upstream.example', ['127.0.0.1', '10.0.0.7'], parseAddressPolicy('loopback'))
    expect(refused).toMatchObject({
      failure: 'refused',
      refusal: 'not-allowed',
      message: expect.stringMatching(/^upstream\.example resolves to 10\.0\.0\.7 is not in the outbound allow-list/),
    })
  })
  it('lets a name allowed by name resolve outside the allow-list, but never into the denied ranges', () => {
    const policy = parseAddressPolicy('loopback,*.svc.cluster.local')
    expect(resolvedRefusal('api.svc.cluster.local', ['10.0.0.7'], policy)).toBeNull()
    expect(resolvedRefusal('api.svc.cluster.local', ['10.0.0.7', '169.254.169.254'], policy)).toMatchObject({ refusal: 'never-allowed' })
    expect(resolvedRefusal('other.example', ['10.0.0.7'], policy)).toMatchObject({ refusal: 'not-allowed' })
  })
})

describe('outbound errors', () => {
  it('are found however deep a transport wrapped them', () => {
    const inner = new OutboundError('timeout', 'late')
    expect(outboundErrorOf(new Error('fetch failed', { cause: new Error('body', { cause: inner }) }))).toBe(inner)
    expect(outboundErrorOf(new Error('plain'))).toBeNull()
    expect(outboundErrorOf(undefined)).toBeNull()
  })
})

describe('outbound request headers', () => {
  it('keeps what the caller set and adds the defaults it did not', () => {
    expect(outboundHeaders({ Accept: 'application/json', 'X-Api-Key': 'k' }, { accept: '*/*', 'user-agent': 'undici' })).toEqual({
      accept: 'application/json',
      'x-api-key': 'k',
      'user-agent': 'undici',
    })
  })
  it('lets only content headers follow a redirect to another origin, whatever the credential is called', () => {
    const kept = crossOriginHeaders({
      authorization: 'Bearer s',
      'x-api-key': 'k',
      cookie: 'c',
      'content-type': 'application/json',
      'mcp-protocol-version': '2025-11-25',
    })
    expect(Object.fromEntries(kept)).toEqual({ 'content-type': 'application/json', 'mcp-protocol-version': '2025-11-25' })
  })
})
