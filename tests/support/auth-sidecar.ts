// For MCP tools that cannot send a credential of their own (the conformance suite): a local HTTP
// proxy that adds the agent's `Authorization` header to every request and passes it to the gateway,
// as an agent's sidecar would. Bodies and answers (event streams included) are passed through as they are.
import http from 'node:http'
import { listen, type Listening } from './listen'

export function startAuthSidecar(target: string, token: string): Promise<Listening> {
  const upstream = new URL(target)
  return listen((req, res) => {
    const out = http.request(
      {
        hostname: upstream.hostname,
        port: upstream.port,
        path: req.url,
        method: req.method,
        headers: { ...req.headers, host: upstream.host, authorization: `Bearer ${token}` },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers)
        answer.pipe(res)
      },
    )
    out.on('error', () => {
      if (!res.headersSent) res.writeHead(502)
      res.end()
    })
    res.on('close', () => out.destroy())
    req.pipe(out)
  })
}
