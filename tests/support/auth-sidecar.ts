// For MCP tools that cannot send a credential of their own (the conformance suite): a local HTTP
// proxy that adds the agent's `Authorization` header to every request and passes it to the gateway,
// as an agent's sidecar would. Bodies and answers (event streams included) are passed through as they are,
// but for one optional translation of tool names (`toolPrefix`, below).
import http from 'node:http'
import { listen, type Listening } from './listen'

export interface SidecarOptions {
  /**
   * The gateway names an upstream's tools `<LanguageTool>.<tool>` (canonical tool ids are dotted); a
   * client that knows only the upstream's bare names (the conformance suite's `test_simple_text`, …)
   * reaches them through this prefix: added to a bare (undotted) name a `tools/call` asks for (body
   * and `Mcp-Name` header alike) and taken off the names a `tools/list` answers. Nothing else is changed.
   */
  toolPrefix?: string
}

export function startAuthSidecar(target: string, token: string, { toolPrefix }: SidecarOptions = {}): Promise<Listening> {
  const upstream = new URL(target)
  return listen(async (req, res) => {
    const headers: http.OutgoingHttpHeaders = { ...req.headers, host: upstream.host, authorization: `Bearer ${token}` }
    let body: Buffer | null = null
    let listsTools = false
    if (toolPrefix && req.method === 'POST') {
      const chunks: Buffer[] = []
      for await (const chunk of req) chunks.push(chunk as Buffer)
      body = Buffer.concat(chunks)
      const translated = prefixToolCall(body.toString('utf8'), toolPrefix, headers)
      listsTools = translated.listsTools
      body = Buffer.from(translated.text)
      headers['content-length'] = String(body.length)
    }
    const out = http.request({ hostname: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers }, (answer) => {
      if (!listsTools) {
        res.writeHead(answer.statusCode ?? 502, answer.headers)
        return void answer.pipe(res)
      }
      const chunks: Buffer[] = []
      answer.on('data', (chunk: Buffer) => chunks.push(chunk))
      answer.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8').replaceAll(`"name":"${toolPrefix}`, '"name":"')
        const { 'content-length': _length, ...rest } = answer.headers
        res.writeHead(answer.statusCode ?? 502, rest).end(text)
      })
    })
    out.on('error', () => {
      if (!res.headersSent) res.writeHead(502)
      res.end()
    })
    res.on('close', () => out.destroy())
    if (body) out.end(body)
    else req.pipe(out)
  })
}

/** The request with `prefix` put before a called tool's bare name; whether it asks for the tool list. */
function prefixToolCall(text: string, prefix: string, headers: http.OutgoingHttpHeaders): { text: string; listsTools: boolean } {
  let message: unknown
  try {
    message = JSON.parse(text)
  } catch {
    return { text, listsTools: false }
  }
  const messages = (Array.isArray(message) ? message : [message]) as Array<{ method?: string; params?: { name?: unknown } }>
  for (const m of messages) {
    // Every name the gateway serves is dotted: only a bare one is the upstream's own.
    if (m?.method !== 'tools/call' || typeof m.params?.name !== 'string' || m.params.name.includes('.')) continue
    const header = headers['mcp-name']
    if (typeof header === 'string' && header.trim() === m.params.name) headers['mcp-name'] = header.replace(m.params.name, `${prefix}${m.params.name}`)
    m.params.name = `${prefix}${m.params.name}`
  }
  return { text: JSON.stringify(message), listsTools: messages.some((m) => m?.method === 'tools/list') }
}
