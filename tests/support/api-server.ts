// A real HTTP server in front of the app's own route modules (app/api/v1/**/route.ts), dispatched by
// the contracts' paths as Next.js's router would: for clients that must talk HTTP (the toolroom CLI,
// run as a child process) without building the web app.
import path from 'node:path'
import { Readable } from 'node:stream'
import { ALL_CONTRACTS } from '@/lib/api/contracts'
import { notFoundRoute } from '@/lib/http/not-found-route'
import { listen, type Listening } from './listen'

type Handler = (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>

interface Route {
  pattern: RegExp
  names: string[]
  module: Record<string, Handler>
  /** Fixed segments first, as Next.js matches `/agents/credentials` before `/agents/{id}`. */
  fixed: number
}

export async function startApiServer(): Promise<Listening> {
  const templates = [...new Set(ALL_CONTRACTS.map((c) => c.path))]
  const routes: Route[] = await Promise.all(
    templates.map(async (template) => {
      const file = path.resolve(`app${template.replace(/\{(\w+)\}/g, '[$1]')}/route.ts`)
      const names = [...template.matchAll(/\{(\w+)\}/g)].map((m) => m[1])
      const pattern = new RegExp(`^${template.replace(/[.]/g, '\\.').replace(/\{\w+\}/g, '([^/]+)')}$`)
      return {
        pattern,
        names,
        module: (await import(file)) as Record<string, Handler>,
        fixed: template.split('/').filter((s) => s && !s.startsWith('{')).length,
      }
    }),
  )
  routes.sort((a, b) => b.fixed - a.fixed)

  return listen(async (req, res) => {
    try {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1')
      const hasBody = req.method !== 'GET' && req.method !== 'HEAD'
      const left = new AbortController()
      res.on('close', () => left.abort())
      const request = new Request(url, {
        method: req.method,
        headers: Object.entries(req.headers).flatMap(([k, v]) => (v === undefined ? [] : (Array.isArray(v) ? v : [v]).map((x) => [k, x] as [string, string]))),
        ...(hasBody ? { body: Readable.toWeb(req) as ReadableStream, duplex: 'half' } : {}),
        signal: left.signal,
      } as RequestInit)
      let answer: Response | null = null
      for (const route of routes) {
        const match = route.pattern.exec(url.pathname)
        if (!match) continue
        const handler = route.module[req.method ?? 'GET']
        if (!handler) continue
        const params = Object.fromEntries(route.names.map((name, i) => [name, decodeURIComponent(match[i + 1])]))
        answer = await handler(request, { params: Promise.resolve(params) })
        break
      }
      answer ??= await notFoundRoute(request)
      res.writeHead(answer.status, Object.fromEntries(answer.headers))
      // Streamed, as Next.js does: a watch's body never ends, and ends for the server when the client leaves.
      if (answer.body) Readable.fromWeb(answer.body as import('node:stream/web').ReadableStream).pipe(res)
      else res.end()
    } catch (error) {
      res.writeHead(500, { 'content-type': 'text/plain' }).end(String(error))
    }
  })
}
