// The client address behind the lean gateway front: a real front (lib/gateway/server.ts) passing
// requests over HTTP to a real server that hands them to the route handlers, as Next.js does.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { accessRoutes } from '@/lib/api/access-routes'
import { authHandler } from '@/lib/sign-in/auth-handler'
import { parseConfig, reloadConfig } from '@/lib/config'
import { prisma } from '@/lib/db'
import { createGatewayServer } from '@/lib/gateway/server'
import { clientAddress, frontPeerHeaders, PEER_ADDRESS_HEADER, PEER_PROOF_HEADER } from '@/lib/request-origin/client-address'
import { ensureUser, PASSWORD } from './access-fixtures'

let web: http.Server
let front: http.Server
let base = ''
const savedTrusted = process.env.TOOLROOM_TRUSTED_PROXIES

beforeAll(async () => {
  // Stands in for Next.js: the request as it arrived, headers and all, to the route handler.
  web = http.createServer(async (req, res) => {
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    const headers = new Headers()
    for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string') headers.set(name, value)
    const request = new Request(`http://${req.headers.host}${req.url}`, {
      method: req.method,
      headers,
      body: chunks.length ? Buffer.concat(chunks) : undefined,
    })
    const answer =
      req.url === '/api/v1/session' && req.method === 'POST'
        ? await accessRoutes.signIn(request)
        : req.url?.startsWith('/api/auth/')
          ? await authHandler(request)
          : new Response('{}', { status: 404 })
    res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'text/plain' }).end(await answer.text())
  })
  await new Promise<void>((resolve) => web.listen(0, '127.0.0.1', resolve))
  front = createGatewayServer({ port: 0, upstream: `http://127.0.0.1:${(web.address() as AddressInfo).port}` })
  await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(front.address() as AddressInfo).port}`
})

afterAll(async () => {
  if (savedTrusted === undefined) delete process.env.TOOLROOM_TRUSTED_PROXIES
  else process.env.TOOLROOM_TRUSTED_PROXIES = savedTrusted
  reloadConfig()
  front.closeAllConnections()
  await new Promise((resolve) => front.close(resolve))
  await new Promise((resolve) => web.close(resolve))
})

const lastAudit = (action: string) => prisma.auditEvent.findFirst({ where: { action }, orderBy: { id: 'desc' } })

function signInThroughFront(email: string, password: string, headers: Record<string, string> = {}) {
  return fetch(`${base}/api/v1/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: base, ...headers },
    body: JSON.stringify({ email, password }),
  })
}

describe('the client address', () => {
  it('ignores X-Forwarded-For from untrusted peers: 25 spoofed addresses are one address, and the audit log records the real one', async () => {
    delete process.env.TOOLROOM_TRUSTED_PROXIES
    reloadConfig()
    // The private headers are forged too, even with the real proof (which no client has).
    const spoofing = (i: number) => {
      const spoofed = `203.0.113.${i + 1}`
      return { 'x-forwarded-for': spoofed, [PEER_ADDRESS_HEADER]: spoofed, [PEER_PROOF_HEADER]: frontPeerHeaders('192.0.2.1')[PEER_PROOF_HEADER] }
    }
    // Failed token requests are limited per client and address: only a believed spoofed address would buy more.
    const statuses: number[] = []
    for (let i = 0; i < 25; i++) {
      const res = await fetch(`${base}/api/auth/oauth2/token`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          authorization: `Basic ${Buffer.from('spoofed-client:trc_guess').toString('base64')}`,
          ...spoofing(i),
        },
        body: new URLSearchParams({ grant_type: 'client_credentials', scope: 'mcp' }),
      })
      statuses.push(res.status)
    }
    expect(statuses.slice(0, 20).every((s) => s === 401)).toBe(true)
    expect(statuses.slice(20)).toEqual([429, 429, 429, 429, 429])
    for (let i = 0; i < 15; i++) {
      const res = await signInThroughFront(`nobody${i}@spoof.test`, 'wrong password', spoofing(i))
      expect(res.headers.get('content-type')).toBe('application/problem+json')
    }
    const recorded = await prisma.auditEvent.findMany({ where: { action: 'auth.sign_in_failed', actorName: { endsWith: '@spoof.test' } } })
    expect(recorded).toHaveLength(15)
    for (const event of recorded) expect((event.detail as { ip: string }).ip).toBe('127.0.0.1')
  })

  it('honours X-Forwarded-For only through configured proxies, walking from the right past trusted hops', async () => {
    // The test client is the front's peer at 127.0.0.1; call it a proxy, with 10.9.0.0/16 behind it.
    process.env.TOOLROOM_TRUSTED_PROXIES = '127.0.0.1, 10.9.0.0/16'
    reloadConfig()
    const { email } = await ensureUser('viewer', 'behind-proxy')
    const res = await signInThroughFront(email, PASSWORD, { 'x-forwarded-for': '198.51.100.66, 192.0.2.44, 10.9.3.4' })
    expect(res.status).toBe(200)
    expect((await lastAudit('auth.signed_in'))?.detail).toMatchObject({ ip: '192.0.2.44' })
    const session = await prisma.session.findFirst({ where: { user: { email } }, orderBy: { createdAt: 'desc' } })
    expect(session?.ipAddress).toBe('192.0.2.44')
    delete process.env.TOOLROOM_TRUSTED_PROXIES
    reloadConfig()
  })

  it('is computed by one rule: peers, proxies and garbage', () => {
    const headers = (forwarded: string | null, peer: string | null, proof = true) => {
      const h = new Headers()
      if (forwarded !== null) h.set('x-forwarded-for', forwarded)
      if (peer !== null) for (const [k, v] of Object.entries(frontPeerHeaders(peer))) if (proof || k === PEER_ADDRESS_HEADER) h.set(k, v)
      return h
    }
    const none = parseConfig({})
    const proxies = parseConfig({ TOOLROOM_TRUSTED_PROXIES: '10.0.0.0/8,::1,fd00::/8' })
    expect(clientAddress(headers('1.2.3.4', '192.0.2.9'), none)).toBe('192.0.2.9')
    expect(clientAddress(headers('1.2.3.4', '::ffff:192.0.2.9'), none)).toBe('192.0.2.9')
    expect(clientAddress(headers('1.2.3.4', '192.0.2.9', false), none)).toBeNull()
    expect(clientAddress(headers('1.2.3.4', null), none)).toBeNull()
    expect(clientAddress(headers('1.2.3.4, 10.1.1.1', '10.2.2.2'), proxies)).toBe('1.2.3.4')
    expect(clientAddress(headers('1.2.3.4, 5.6.7.8', '10.2.2.2'), proxies)).toBe('5.6.7.8')
    expect(clientAddress(headers('1.2.3.4, not-an-ip', '10.2.2.2'), proxies)).toBe('10.2.2.2')
    expect(clientAddress(headers('2001:db8::7', '::1'), proxies)).toBe('2001:db8::7')
    expect(clientAddress(headers(null, '10.2.2.2'), proxies)).toBe('10.2.2.2')
    // Without the front, whoever connected is taken to be a configured proxy.
    expect(clientAddress(headers('1.2.3.4, 10.3.3.3', null), proxies)).toBe('1.2.3.4')
    // An entry that is no address or CIDR stops the process at start rather than trusting nobody quietly.
    expect(() => parseConfig({ TOOLROOM_TRUSTED_PROXIES: '10.0.0.0/8, nonsense' })).toThrow(
      /TOOLROOM_TRUSTED_PROXIES must be a comma list of IP addresses and CIDRs, got "10\.0\.0\.0\/8, nonsense": "nonsense" is not an IP address or CIDR/,
    )
    expect(() => parseConfig({ TOOLROOM_TRUSTED_PROXIES: '10.0.0.0/99' })).toThrow(/"10\.0\.0\.0\/99" is not an IP address or CIDR/)
  })
})
