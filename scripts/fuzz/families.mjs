// The fuzzer's scenario families: hostile parts of its own that a random request cannot stand in for,
// each with the oracle the second security probe taught (SECURITY.md, "What was tried"):
//
//   host-state   anonymous requests with made-up and malformed Host headers on the OAuth discovery
//                routes; no row may appear in OauthResource, no internal origin in any answer
//   echo         a REST tool with a bearer Secret against an upstream that echoes the request's headers
//                (as is, base64, URL-encoded, JSON-escaped, in a success or a failure); no form of the
//                secret in any answer, over MCP or REST; a failure carries the upstream's answer, never
//                Toolroom's own -32603
//   deep-schema  an MCP server whose tools/list has an inputSchema 1,500 levels deep beside a plain
//                tool; no crash text or internal error anywhere, the deep tool refused, the plain kept
//   drip         a read-only REST tool (retried) with timeoutMs against an upstream that sends a byte a
//                while; the call ends within its timeoutMs plus a margin
//
// The families change the registry (namespace `fuzz-hostile`), so they do not run in a safe run.
import http from 'node:http'
import { countStateRows, send, stateGrowth } from './fuzz.mjs'
import { crashText, internalErrorInRest, internalErrorsInMcp, internalOrigin, jsonRpcMessages, leakedSecret, originsOfHost, overBudget } from './oracles.mjs'
import { rngFor } from './rng.mjs'

export const FAMILIES = ['host-state', 'echo', 'deep-schema', 'drip']
export const NAMESPACE = 'fuzz-hostile'
const DEEP_LEVELS = 1500
export const DRIP_TIMEOUT_MS = 1500
const DRIP_MARGIN_MS = 2000

/** A schema `levels` deep, written as text: building it as an object and stringifying would be the very recursion under test. */
export function deepSchemaText(levels) {
  return `${'{"type":"object","properties":{"a":'.repeat(levels)}{"type":"string"}${'}}'.repeat(levels)}`
}

/**
 * The hostile upstreams on one loopback port: `/echo/{mode}` (the request's headers back, encoded by
 * mode; `fail` answers 500 with a marker), `/drip` (a byte every 400 ms, never finishing), `/mcp` (a
 * plain JSON-RPC MCP server with a shallow and a deep tool).
 */
export async function startHostileUpstreams() {
  const drips = new Set()
  const server = http.createServer((req, res) => {
    const chunks = []
    req.on('data', (d) => chunks.push(d))
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://upstream')
      const echo = /^\/echo\/(\w+)(?:\/([\w-]+))?/.exec(url.pathname)
      if (echo) {
        const headers = JSON.stringify(req.headers)
        const token = String(req.headers.authorization).replace(/^Bearer /, '')
        const mode = echo[1]
        const body =
          mode === 'b64'
            ? JSON.stringify({ headers: Buffer.from(headers).toString('base64'), auth: Buffer.from(token).toString('base64') })
            : mode === 'url'
              ? JSON.stringify({ headers: encodeURIComponent(headers), auth: encodeURIComponent(token) })
              : mode === 'json'
                ? JSON.stringify({ headers: JSON.stringify(headers) })
                : mode === 'text'
                  ? `you sent ${headers}`
                  : JSON.stringify({ marker: `upstream-failed-${echo[2]}`, headers })
        res.writeHead(mode === 'fail' ? 500 : 200, { 'content-type': mode === 'text' ? 'text/plain' : 'application/json' })
        return void res.end(body)
      }
      if (url.pathname === '/drip') {
        res.writeHead(200, { 'content-type': 'application/json' })
        res.write('{')
        const timer = setInterval(() => res.write(' '), 400)
        const stop = () => (clearInterval(timer), drips.delete(stop))
        drips.add(stop)
        res.on('close', stop)
        setTimeout(() => (stop(), res.end('}')), 60_000).unref()
        return
      }
      if (url.pathname === '/mcp' && req.method === 'POST') return void answerMcp(Buffer.concat(chunks).toString('utf8'), res)
      res.writeHead(url.pathname === '/mcp' ? 405 : 404).end()
    })
  })
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    close: async () => {
      for (const stop of [...drips]) stop()
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    },
  }
}

const DEEP_TOOL = `{"name":"deep","description":"a schema 1,500 levels deep","inputSchema":${deepSchemaText(DEEP_LEVELS)}}`
const SHALLOW_TOOL = '{"name":"shallow","description":"a plain tool beside it","inputSchema":{"type":"object","properties":{"text":{"type":"string"}}}}'

/** A stateless MCP server by hand (the SDK would refuse to list a schema it cannot handle itself). */
function answerMcp(text, res) {
  let message
  try {
    message = JSON.parse(text)
  } catch {
    return void res.writeHead(400).end()
  }
  if (message.id === undefined) return void res.writeHead(202).end()
  const reply = (result) => res.writeHead(200, { 'content-type': 'application/json' }).end(`{"jsonrpc":"2.0","id":${JSON.stringify(message.id)},${result}}`)
  if (message.method === 'initialize')
    return reply(
      `"result":${JSON.stringify({ protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'fuzz-deep', version: '1.0.0' } })}`,
    )
  if (message.method === 'tools/list') return reply(`"result":{"tools":[${SHALLOW_TOOL},${DEEP_TOOL}]}`)
  if (message.method === 'tools/call') return reply(`"result":{"content":[{"type":"text","text":"called"}]}`)
  if (message.method === 'ping') return reply('"result":{}')
  reply('"error":{"code":-32601,"message":"Method not found"}')
}

/** The registry the families call: a Secret, the echo and drip REST tools (read-only), the deep MCP server, one agent. */
export function hostileManifest(upstreamUrl, secret) {
  const rest = (name, path, extra = '') => `---
apiVersion: toolroom.dev/v1alpha1
kind: Tool
metadata: { name: ${name}, namespace: ${NAMESPACE} }
spec:
  type: rest
  description: ${name}, a hostile upstream of the fuzzer's
  endpoint: { method: GET, url: "${upstreamUrl}${path}", auth: { type: bearer, secretRef: { name: echo-token } }${extra} }
  inputSchema: { type: object, properties: { mode: { type: string }, m: { type: string } } }
  sideEffects: { level: read_only }
`
  // No SideEffectPolicy: there is one per level in a whole registry, and the server's own decides.
  return `apiVersion: toolroom.dev/v1alpha1
kind: Secret
metadata: { name: echo-token, namespace: ${NAMESPACE} }
spec: { type: bearer, stringData: { token: ${JSON.stringify(secret)} } }
---
apiVersion: toolroom.dev/v1alpha1
kind: LanguageTool
metadata: { name: deep, namespace: ${NAMESPACE} }
spec: { endpoint: "${upstreamUrl}/mcp" }
${rest('echo.headers', '/echo/{mode}/{m}')}${rest('drip.read', '/drip', `, timeoutMs: ${DRIP_TIMEOUT_MS}`)}---
apiVersion: toolroom.dev/v1alpha1
kind: Agent
metadata: { name: hostile-agent, namespace: ${NAMESPACE} }
spec:
  languageTools: [deep]
  grants: [echo.headers, drip.read]
`
}

async function api(baseUrl, token, method, path, body, contentType = 'application/json') {
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body !== undefined ? { 'content-type': contentType } : {}) },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  })
  const text = await res.text()
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 300)}`)
  return text ? JSON.parse(text) : null
}

/**
 * Applies the hostile registry and issues the agent a credential. `discover(languageToolId)` runs
 * discovery of the deep server and resolves once it finished (a worker's job: the caller knows how
 * its server runs them); without it the deep-schema family is reported as not run.
 */
export async function prepareFamilies({ baseUrl, adminToken, upstreamUrl, secret, discover }) {
  // Apply answers 409 "retry" when a write of the random run's raced it on a name.
  for (let attempt = 1; ; attempt++) {
    try {
      await api(baseUrl, adminToken, 'POST', '/api/v1/apply', hostileManifest(upstreamUrl, secret), 'application/yaml')
      break
    } catch (e) {
      if (attempt >= 3 || !/: 409 /.test(e.message)) throw e
      await new Promise((resolve) => setTimeout(resolve, 500 * attempt))
    }
  }
  const agents = (await api(baseUrl, adminToken, 'GET', `/api/v1/agents?namespace=${NAMESPACE}&limit=10`)).items
  const agent = agents.find((a) => a.metadata.name === 'hostile-agent')
  const credential = await api(baseUrl, adminToken, 'POST', `/api/v1/agents/${agent.id}/credentials`, { name: `fuzz-hostile-${Date.now()}`, expiresInDays: 1 })
  let discovered = false
  const servers = (await api(baseUrl, adminToken, 'GET', `/api/v1/languagetools?namespace=${NAMESPACE}&limit=10`)).items
  const deepServerId = servers.find((s) => s.metadata.name === 'deep').id
  if (discover) discovered = (await discover(deepServerId)) !== false
  return { baseUrl, adminToken, upstreamUrl, agentToken: credential.token, secret, discovered, deepServerId }
}

/**
 * Discovery of a LanguageTool through the API, for a server with a worker: asks for a refresh, then
 * waits (at most `ms`) for a finished run newer than the ask. False when no run finished (no worker).
 */
export function discoverViaApi(baseUrl, adminToken, ms = 60_000) {
  return async (id) => {
    const asked = Date.now()
    await api(baseUrl, adminToken, 'POST', `/api/v1/languagetools/${id}/refresh`)
    while (Date.now() - asked < ms) {
      const runs = (await api(baseUrl, adminToken, 'GET', `/api/v1/discovery/runs?subjectKind=LanguageTool&subjectId=${id}&limit=5`)).items
      if (runs.some((r) => r.status !== 'running' && Date.parse(r.startedAt ?? r.createdAt ?? 0) >= asked - 1000)) return true
      await new Promise((resolve) => setTimeout(resolve, 250))
    }
    return false
  }
}

function mcp(world, body, extraHeaders = {}) {
  return send(
    { baseUrl: world.baseUrl, tokens: { agent: world.agentToken } },
    {
      identity: 'agent',
      method: 'POST',
      path: '/mcp',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...extraHeaders },
      body: JSON.stringify(body),
    },
    { timeoutMs: 30_000 },
  )
}

function rest(world, toolId, args) {
  return send(
    { baseUrl: world.baseUrl, tokens: { agent: world.agentToken } },
    {
      identity: 'agent',
      method: 'POST',
      path: `/api/v1/gateway/tools/${encodeURIComponent(toolId)}/call`,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ arguments: args }),
    },
    { timeoutMs: 30_000 },
  )
}

/** Every oracle that holds for any answer of the families: no secret, no crash, no internal error or origin. */
function commonDefects(world, r, channel, sentHost) {
  if (r.timedOut) return ['timeout']
  if (r.error) return [`connection error ${r.error}`]
  const text = `${Object.entries(r.headers ?? {})
    .map(([k, v]) => `${k}: ${v}`)
    .join('\n')}\n${r.body}`
  // The wire form and every string the answer decodes to: a secret JSON-escaped on the wire is itself there.
  const decoded = stringsOf(jsonRpcMessages(r.body, r.contentType)).join('\n')
  const out = [
    leakedSecret(`${text}\n${decoded}`, [world.secret]),
    crashText(r.body),
    internalOrigin(text, world.baseUrl, [world.upstreamUrl, ...originsOfHost(sentHost)]),
  ]
  if (channel === 'mcp') out.push(...internalErrorsInMcp(r.body, r.contentType))
  else if (r.status === 502) out.push(internalErrorInRest(r.status, r.body))
  else if (r.status >= 500) out.push(`HTTP ${r.status}`)
  return out.filter(Boolean)
}

/** Every string in a JSON value, without recursion: the deep-schema family's answers are 1,500 levels deep. */
function stringsOf(root) {
  const out = []
  const stack = [root]
  while (stack.length) {
    const v = stack.pop()
    if (typeof v === 'string') out.push(v)
    else if (v && typeof v === 'object') stack.push(...(Array.isArray(v) ? v : Object.values(v)))
  }
  return out
}

/** The agent's tool names, by what they end with (`echo.headers`, a discovered `shallow`). */
async function toolNames(world) {
  const r = await mcp(world, { jsonrpc: '2.0', id: 1, method: 'tools/list' })
  const [m] = jsonRpcMessages(r.body, r.contentType)
  return { names: (m?.result?.tools ?? []).map((t) => t.name), answer: r }
}

/**
 * Runs `count` seeded cases of each family (host-state: one per case; the others a few), with the
 * OauthResource count before and after when `databaseUrl` is given. Returns per family the cases
 * run and the findings.
 */
export async function runFamilies(world, { seed, count = 8, databaseUrl, only = FAMILIES } = {}) {
  const report = {}
  const note = (family, c, defects, r) => {
    report[family] ??= { cases: 0, findings: [] }
    report[family].cases++
    for (const d of defects) report[family].findings.push({ case: c, defect: d, status: r?.status, body: r?.body?.slice(0, 300) })
  }

  if (only.includes('host-state')) {
    const before = await countStateRows(databaseUrl)
    for (let i = 0; i < count * 4; i++) {
      const rng = rngFor(seed, 1_000_000 + i)
      const c = hostHeaderRequest(rng)
      const r = await send({ baseUrl: world.baseUrl, tokens: {} }, { identity: 'anonymous', ...c }, { timeoutMs: 15_000 })
      note(
        'host-state',
        { index: i, host: c.headers.host, path: c.path },
        commonDefects(world, r, c.path === '/mcp' ? 'mcp' : 'rest', c.headers.host).concat(
          r.status >= 200 && r.status < 300 && c.path === '/mcp' ? ['anonymous 2xx on /mcp'] : [],
        ),
        r,
      )
    }
    const after = await countStateRows(databaseUrl)
    for (const d of stateGrowth(before, after)) note('host-state', { index: 'before/after' }, [d])
    if (!before) report['host-state'].notes = ['no DATABASE_URL: OauthResource rows not counted']
  }

  if (only.includes('echo')) {
    const modes = ['raw', 'b64', 'url', 'json', 'text', 'fail']
    for (let i = 0; i < count; i++) {
      const rng = rngFor(seed, 2_000_000 + i)
      const mode = rng.pick(modes)
      const marker = `${seed}-${i}`
      const args = { mode, m: marker }
      const overMcp = rng.chance(0.5)
      const r = overMcp
        ? await mcp(world, { jsonrpc: '2.0', id: i, method: 'tools/call', params: { name: 'echo.headers', arguments: args } })
        : await rest(world, 'echo.headers', args)
      const defects = commonDefects(world, r, overMcp ? 'mcp' : 'rest')
      // The upstream's failure reaches the caller as the upstream's: its marker, not a stand-in.
      if (mode === 'fail' && !r.timedOut && !r.error && !r.body.includes(`upstream-failed-${marker}`))
        defects.push(`the upstream's failure (marker upstream-failed-${marker}) is not in the answer`)
      note('echo', { index: i, mode, channel: overMcp ? 'mcp' : 'rest' }, defects, r)
    }
  }

  if (only.includes('deep-schema')) {
    if (!world.discovered) report['deep-schema'] = { cases: 0, findings: [], notes: ['not run: no way to run discovery on this server (no worker)'] }
    else {
      const { names, answer } = await toolNames(world)
      const defects = commonDefects(world, answer, 'mcp')
      const deep = names.find((n) => /(^|[./])deep$/.test(n))
      if (!names.some((n) => /(^|[./])shallow$/.test(n))) defects.push(`the plain tool beside the deep one is not listed (${names.join(', ')})`)
      if (deep) defects.push(`the 1,500-deep tool was stored and listed as ${deep}`)
      note('deep-schema', { index: 'tools/list' }, defects, answer)
      // The refusal is said where operators look: the run names the tool it left out, with the reason.
      const [run] = (
        await api(world.baseUrl, world.adminToken, 'GET', `/api/v1/discovery/runs?subjectKind=LanguageTool&subjectId=${world.deepServerId}&limit=1`)
      ).items
      const refused = run?.details?.refused ?? []
      const named = refused.some((r) => JSON.stringify(r).includes('deep') && (r.reason || r.message))
      note(
        'deep-schema',
        { index: 'discovery run' },
        named ? [] : [`the last discovery run does not name the deep tool as refused (${JSON.stringify(refused).slice(0, 200)})`],
        {
          status: 200,
          body: JSON.stringify(run ?? null),
        },
      )
      for (let i = 0; i < Math.max(1, Math.floor(count / 4)); i++) {
        const name = deep ?? `deep.deep`
        const r = i % 2 ? await rest(world, name, {}) : await mcp(world, { jsonrpc: '2.0', id: i, method: 'tools/call', params: { name, arguments: {} } })
        note('deep-schema', { index: i, call: name }, commonDefects(world, r, i % 2 ? 'rest' : 'mcp'), r)
      }
    }
  }

  if (only.includes('drip')) {
    for (let i = 0; i < Math.max(1, Math.floor(count / 4)); i++) {
      const t0 = performance.now()
      const r =
        i % 2
          ? await rest(world, 'drip.read', {})
          : await mcp(world, { jsonrpc: '2.0', id: i, method: 'tools/call', params: { name: 'drip.read', arguments: {} } })
      const defects = commonDefects(world, r, i % 2 ? 'rest' : 'mcp')
      const late = overBudget(performance.now() - t0, DRIP_TIMEOUT_MS, DRIP_MARGIN_MS)
      if (late) defects.push(late)
      note('drip', { index: i, channel: i % 2 ? 'rest' : 'mcp' }, defects, r)
    }
  }
  return report
}

/** One Host-header request of the host-state family (the random run has the same cases: rest-cases.mjs). */
function hostHeaderRequest(rng) {
  const n = rng.int(0, 99_999)
  const host = rng.pick([`fuzz-${n}.example`, `fuzz-${n}.example:8443`, 'a b', 'host:99999', '[::1', 'x'.repeat(300), 'evil.example/path?q', '', '.'])
  const path = rng.pick([
    '/.well-known/oauth-protected-resource/mcp',
    '/.well-known/oauth-protected-resource',
    '/.well-known/oauth-authorization-server',
    '/mcp',
  ])
  const headers = { host }
  if (path === '/mcp')
    return {
      method: 'POST',
      path,
      headers: { ...headers, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
    }
  return { method: 'GET', path, headers }
}

/** The findings of a families report, flat; empty when every oracle held. */
export function familyFindings(report) {
  return Object.entries(report).flatMap(([family, r]) => r.findings.map((f) => ({ family, ...f })))
}

export function formatFamilies(report) {
  return Object.entries(report)
    .map(
      ([family, r]) =>
        `  family ${family}: ${r.cases} cases, ${r.findings.length} findings${r.notes ? ` (${r.notes.join('; ')})` : ''}${r.findings
          .slice(0, 5)
          .map((f) => `\n    ${JSON.stringify(f.case)} ${f.defect}${f.body ? ` → ${f.body.slice(0, 160)}` : ''}`)
          .join('')}`,
    )
    .join('\n')
}
