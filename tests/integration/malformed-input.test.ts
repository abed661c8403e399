// Malformed input gets a 4xx problem, never a 500 and never a blocked process: hand-made cursors on
// every list, hostile manifests (duplicate JSON keys, a megabyte of `---`, deep nesting).
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { ALL_CONTRACTS } from '@/lib/api/contracts'
import { applyRoute } from '@/lib/api/registry-routes'
import type { RouteContract } from '@/lib/http/contract'
import { encodeCursor, encodeTimeCursor } from '@/lib/http/pagination'
import { call } from './helpers'

type Handler = (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>
const SOME_ID = '00000000-0000-4000-8000-000000000000'
const b64 = (value: unknown) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url')

async function handlerFor(contract: RouteContract): Promise<Handler> {
  const mod = (await import(path.resolve(`app${contract.path.replace(/\{(\w+)\}/g, '[$1]')}/route.ts`))) as Record<string, Handler>
  return mod[contract.method]
}

describe('cursors', () => {
  it('that this API did not issue are a 400 problem on every list, whatever they hold', async () => {
    const lists = ALL_CONTRACTS.filter((c) => c.method === 'GET' && c.query && 'cursor' in (c.query as { shape: object }).shape && !c.path.includes('{'))
    expect(lists.length).toBeGreaterThanOrEqual(9)
    const cursors = [
      b64(['default', 'x', 'not-a-uuid']),
      b64(['2026-01-01T00:00:00.000Z', '', 'not-a-uuid']),
      b64(['de\u0000fault', 'x', SOME_ID]),
      b64(['default', 'x', 42]),
      b64({ a: 1 }),
      b64('audit:99999999999999999999'),
      b64('audit:9999999999999999999'),
      '%%%',
    ]
    const failures: string[] = []
    for (const contract of lists) {
      const handler = await handlerFor(contract)
      for (const cursor of cursors) {
        const res = await call(handler, `${contract.path}?cursor=${encodeURIComponent(cursor)}`)
        if (res.status !== 400 || res.contentType !== 'application/problem+json')
          failures.push(`${contract.path} cursor=${cursor}: ${res.status} ${res.text.slice(0, 120)}`)
      }
    }
    expect(failures).toEqual([])
  })
})

describe('cursors of another list', () => {
  // Lists by time take only the time cursor; registry lists only the (namespace, name, id) one.
  const TIME_LISTS = ['/api/v1/discovery/runs', '/api/v1/discovery/changes', '/api/v1/calls', '/api/v1/approvals', '/api/v1/agent-credentials', '/api/v1/audit']
  it('are a 400 problem: a registry cursor (or the old time-in-its-namespace form) on a time list, a time cursor on a registry list', async () => {
    const lists = ALL_CONTRACTS.filter((c) => c.method === 'GET' && c.query && 'cursor' in (c.query as { shape: object }).shape && !c.path.includes('{'))
    expect(
      lists
        .filter((c) => TIME_LISTS.includes(c.path))
        .map((c) => c.path)
        .sort(),
    ).toEqual([...TIME_LISTS].sort())
    const failures: string[] = []
    for (const contract of lists) {
      const handler = await handlerFor(contract)
      const foreign = TIME_LISTS.includes(contract.path)
        ? [encodeCursor({ namespace: '2026-01-01T00:00:00.000Z', name: '', id: SOME_ID }), encodeCursor({ namespace: 'default', name: 'alpha', id: SOME_ID })]
        : [encodeTimeCursor(new Date('2026-01-01T00:00:00.000Z'), SOME_ID)]
      for (const cursor of foreign) {
        const res = await call(handler, `${contract.path}?cursor=${encodeURIComponent(cursor)}`)
        if (res.status !== 400 || res.json?.errors?.[0]?.field !== 'cursor')
          failures.push(`${contract.path} cursor=${cursor}: ${res.status} ${res.text.slice(0, 120)}`)
      }
    }
    expect(failures).toEqual([])
  })
})

describe('hostile manifests', () => {
  const apply = (body: string, contentType?: string) => call(applyRoute, '/api/v1/apply?dryRun=true', { method: 'POST', body, contentType })

  it('refuse a key given twice in a JSON object, naming the key and the document, as YAML does', async () => {
    const json =
      '[{"apiVersion":"toolroom.dev/v1alpha1","kind":"Unit","metadata":{"name":"ok"}},{"apiVersion":"toolroom.dev/v1alpha1","kind":"Unit","metadata":{"name":"dup"},"kind":"Secret"}]'
    const res = await apply(json, 'application/json')
    expect(res.status).toBe(422)
    expect(res.contentType).toBe('application/problem+json')
    // The repeated key, at its repetition, among the documents' other problems (both lack a spec).
    const duplicate = res.json.errors.find((e: { rule: string }) => e.rule === 'duplicate-key')
    expect(duplicate).toMatchObject({ document: 1, field: 'kind', line: 1, column: json.lastIndexOf('"kind"') + 1 })
    expect(duplicate.message).toContain('"kind"')
    expect(res.json.errors.map((e: { document: number; field: string }) => `${e.document} ${e.field}`)).toEqual(['0 spec', '1 spec', '1 kind'])
    const yamlDup = await apply('apiVersion: toolroom.dev/v1alpha1\nkind: Unit\nmetadata:\n  name: dup\nkind: Secret\n')
    expect(yamlDup.status).toBe(422)
  })

  // How fast is the benchmarks' business; what is checked here is that the reader stops at the limit
  // it hit and says which, instead of reading on (every document, every level) and erring later.
  it('stop a megabyte of separators and deep nesting at the limit they hit, with one error naming it', async () => {
    const bodies: [string, string][] = [
      ['---\n'.repeat(262_144), 'max-documents'],
      ['---\na: 1\n'.repeat(5000), 'max-documents'],
      ['['.repeat(500_000) + ']'.repeat(500_000), 'max-depth'],
      ['{"a":'.repeat(100_000) + '1' + '}'.repeat(100_000), 'max-depth'],
      ['- '.repeat(100_000) + 'x', 'max-depth'],
      [Array.from({ length: 2000 }, (_, i) => `${' '.repeat(i)}a:`).join('\n') + ' 1', 'max-depth'],
    ]
    for (const [body, rule] of bodies) {
      const res = await apply(body)
      expect(res.status, rule).toBe(422)
      expect(res.contentType).toBe('application/problem+json')
      expect(res.json.errors, rule).toEqual([expect.objectContaining({ rule, field: '(manifest)', message: expect.stringMatching(/at most \d+/) })])
    }
  })
})

describe('methods a route does not take', () => {
  it('are a 405 problem naming the allowed ones in Allow, on every API route', async () => {
    const failures: string[] = []
    const files = (fs.readdirSync('app/api', { recursive: true }) as string[])
      .filter((f) => f.endsWith('route.ts') && !f.includes('[...unknown]') && !f.startsWith('auth'))
      .map((f) => `app/api/${f}`)
    expect(files.length).toBeGreaterThan(60)
    for (const file of files) {
      const mod = (await import(path.resolve(file))) as Record<string, Handler | undefined>
      const url = `/${path
        .dirname(file)
        .replace(/^app\//, '')
        .replace(/\[(\w+)\]/g, SOME_ID)}`
      const own = ALL_CONTRACTS.filter((c) => `/${path.dirname(file).replace(/^app\//, '')}` === c.path.replace(/\{(\w+)\}/g, '[$1]')).map((c) => c.method)
      for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']) {
        if (own.includes(method as RouteContract['method']) || (url === '/api/live' && method === 'GET') || (url === '/api/health' && method === 'GET'))
          continue
        const handler = mod[method]
        if (!handler) {
          failures.push(`${method} ${url}: not exported (Next.js would answer a bare 405)`)
          continue
        }
        const res = await call(handler, url, { method, params: {} })
        if (res.status !== 405 || res.contentType !== 'application/problem+json' || !res.headers.get('allow'))
          failures.push(`${method} ${url}: ${res.status} ${res.contentType}`)
      }
    }
    expect(failures).toEqual([])
    const patch = await call((await import('@/app/api/v1/tools/route')).PATCH, '/api/v1/tools', { method: 'PATCH', body: {} })
    expect(patch.status).toBe(405)
    expect(patch.headers.get('allow')).toBe('GET, POST, HEAD, OPTIONS')
    expect(patch.json.detail).toMatch(/PATCH is not allowed on \/api\/v1\/tools/)
  })
})

describe('requests Next.js would answer with an HTML page', () => {
  it('are answered by the lean front as problem+json, and never reach the web server', async () => {
    const http = await import('node:http')
    const reached: string[] = []
    const web = http.createServer((req, res) => {
      reached.push(`${req.method} ${req.url}`)
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}')
    })
    await new Promise<void>((resolve) => web.listen(0, '127.0.0.1', resolve))
    const { createGatewayServer } = await import('@/lib/gateway/server')
    const front = createGatewayServer({ port: 0, upstream: `http://127.0.0.1:${(web.address() as { port: number }).port}` })
    await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve))
    const port = (front.address() as { port: number }).port
    const send = (method: string, target: string) =>
      new Promise<{ status: number; type: string | undefined; allow: string | undefined; body: string }>((resolve, reject) => {
        const req = http.request({ host: '127.0.0.1', port, method, path: target, agent: false }, (res) => {
          let body = ''
          res.on('data', (c) => (body += c))
          res.on('end', () => resolve({ status: res.statusCode!, type: res.headers['content-type'], allow: res.headers.allow, body }))
        })
        req.on('error', reject)
        req.end()
      })
    try {
      for (const target of ['/api/v1/tools/%ff', '/api/v1/%', '/api/v1/tools/%zz?x=1', '/%c0%af']) {
        const res = await send('GET', target)
        expect(res.status, target).toBe(400)
        expect(res.type).toBe('application/problem+json')
        expect(JSON.parse(res.body).errors[0]).toMatchObject({ field: '(path)', rule: 'percent-encoding' })
      }
      const trace = await send('TRACE', '/api/v1/tools')
      expect(trace.status).toBe(405)
      expect(trace.type).toBe('application/problem+json')
      expect(trace.allow).toContain('GET')
      expect(reached).toEqual([])
      // Well-formed requests pass as before.
      expect((await send('GET', '/api/v1/tools/%C3%A9')).status).toBe(200)
      expect(reached).toEqual(['GET /api/v1/tools/%C3%A9'])
    } finally {
      front.closeAllConnections()
      await new Promise((resolve) => front.close(resolve))
      await new Promise((resolve) => web.close(resolve))
    }
  })
})
