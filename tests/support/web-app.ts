// The web app's routes served over real HTTP for tests that need a whole origin (MCP authorization:
// discovery documents, better-auth's OAuth endpoints, the consent API), with the gateway front in
// front of it as `npm start` runs them: the front answers /mcp and passes the rest here. Route modules
// are the app/ files themselves, found by path as Next.js would ([param] segments included).
import fs from 'node:fs'
import path from 'node:path'
import { Readable } from 'node:stream'
import { authHandler } from '@/lib/sign-in/auth-handler'
import { createGatewayServer } from '@/lib/gateway/server'
import { listen, listenOn } from './listen'

type Handler = (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>

/** The app/ route file for a URL path, and the values of its [param] segments. */
function routeFileFor(urlPath: string): { file: string; params: Record<string, string> } | null {
  let dir = path.resolve('app')
  const params: Record<string, string> = {}
  for (const segment of urlPath.split('/').filter(Boolean)) {
    const exact = path.join(dir, decodeURIComponent(segment))
    if (fs.existsSync(exact) && fs.statSync(exact).isDirectory()) {
      dir = exact
      continue
    }
    const dynamic = fs.readdirSync(dir).find((d) => /^\[\w+\]$/.test(d))
    if (!dynamic) return null
    params[dynamic.slice(1, -1)] = decodeURIComponent(segment)
    dir = path.join(dir, dynamic)
  }
  const file = path.join(dir, 'route.ts')
  return fs.existsSync(file) ? { file, params } : null
}

export interface WebApp {
  /** The front's origin: what clients use. */
  url: string
  close(): Promise<void>
}

export async function startWebApp(): Promise<WebApp> {
  // Next.js gives a route the URL of its own address (behind the front, the internal port), whatever Host the client sent.
  let ownOrigin = ''
  const web = await listen(async (req, res) => {
    try {
      const chunks: Buffer[] = []
      for await (const chunk of req) chunks.push(chunk as Buffer)
      const headers = new Headers()
      for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) headers.set(k, Array.isArray(v) ? v.join(', ') : v)
      const url = `${ownOrigin}${req.url}`
      const body = chunks.length && req.method !== 'GET' && req.method !== 'HEAD' ? Buffer.concat(chunks) : undefined
      let request: Request
      try {
        request = new Request(url, { method: req.method, headers, body })
      } catch {
        // A Host no Request can carry (`a b`, `user@host`): answered as the front answers input that is
        // not HTTP, so a test sees what the routes do with hosts that parse, not this harness's failure.
        return void res.writeHead(400, { 'content-type': 'text/plain' }).end('bad Host header')
      }
      const pathname = new URL(url).pathname
      let answer: Response
      if (pathname.startsWith('/api/auth/')) answer = await authHandler(request)
      else {
        const found = routeFileFor(pathname)
        const handler = found ? ((await import(found.file)) as Record<string, Handler>)[req.method ?? 'GET'] : undefined
        answer = handler ? await handler(request, { params: Promise.resolve(found!.params) }) : new Response('not found', { status: 404 })
      }
      const out: Record<string, string | string[]> = {}
      answer.headers.forEach((value, name) => {
        if (name !== 'set-cookie') out[name] = value
      })
      const cookies = answer.headers.getSetCookie()
      if (cookies.length) out['set-cookie'] = cookies
      res.writeHead(answer.status, out)
      if (answer.body) Readable.fromWeb(answer.body as import('node:stream/web').ReadableStream<Uint8Array>).pipe(res)
      else res.end()
    } catch (e) {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' })
      res.end(String((e as Error).stack ?? e))
    }
  })
  ownOrigin = web.url.replace('127.0.0.1', 'localhost')
  const front = await listenOn(createGatewayServer({ port: 0, upstream: web.url }))
  return {
    url: front.url,
    close: async () => {
      await front.close()
      await web.close()
    },
  }
}
