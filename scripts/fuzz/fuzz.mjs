// The fuzzer's core, shared by `npm run fuzz` (scripts/fuzz/run.mjs) and the seeded sample in the
// end-to-end suite (e2e/fuzz.spec.ts): prepares identities and known ids on a running Toolroom,
// generates seeded cases (REST from the OpenAPI document, JSON-RPC for /mcp from the MCP schema),
// sends them over loopback and judges what came back (scripts/fuzz/oracles.mjs): a 5xx, a timeout,
// a dropped connection, Toolroom's own -32603 dressed as a tool failure (over REST or in a JSON-RPC
// body), a success for a caller the route's contract does not admit, an internal origin in an answer.
import fs from 'node:fs'
import http from 'node:http'
import { mcpCase } from './mcp-cases.mjs'
import { accessViolation, internalErrorInRest, internalErrorsInMcp, internalOrigin, originsOfHost } from './oracles.mjs'
import { operationsOf, restCase } from './rest-cases.mjs'
import { rngFor } from './rng.mjs'

/**
 * Classes of hostile input, by the tag the generators put on a case; a run can leave some out
 * (`exclude`) while a defect they find is open.
 */
export const CASE_TAGS = {
  nul: 'NUL characters in text, ids and keys',
  'bad-cursor': 'forged pagination cursors',
  'pct-path': 'broken percent-escapes in paths',
  trace: 'TRACE requests',
  'patch-collection': 'PATCH on collections',
  'deep-nesting': 'deeply nested JSON and YAML',
  'duplicate-keys': 'duplicate keys in JSON',
  'yaml-separators': 'megabytes of YAML document separators',
  oversized: 'bodies over the size limits',
  'mcp-bad-params': 'JSON-RPC params of the wrong type',
  'mcp-meta': 'abused _meta and progress tokens',
  'mcp-cancel': 'cancellations of guessed request ids',
  'mcp-2026': 'MCP 2026-07-28 requests: per-request _meta envelope and mirrored headers',
  'mcp-2026-headers': 'MCP 2026-07-28 mirrored headers that disagree with the body',
  huge: 'huge strings and path segments',
  unicode: 'lone surrogates, bidi controls, astral characters',
  text: 'injection-looking text',
  'host-header': 'made-up and malformed Host headers on the OAuth discovery routes',
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '::1'])

export function assertLoopback(baseUrl) {
  const host = new URL(baseUrl).hostname
  if (!LOOPBACK.has(host) && !host.startsWith('127.')) throw new Error(`the fuzzer only targets loopback addresses, not ${host}`)
}

/** Collections whose ids the fuzzer may aim at; tokens, people and credentials are left alone so a run keeps its own. */
const HARVEST = [
  '/api/v1/tools',
  '/api/v1/languagetools',
  '/api/v1/connectors',
  '/api/v1/units',
  '/api/v1/agents',
  '/api/v1/secrets',
  '/api/v1/sideeffectpolicies',
  '/api/v1/policies',
  '/api/v1/approvals',
  '/api/v1/calls',
  '/api/v1/discovery/runs',
  '/api/v1/discovery/changes',
  '/api/v1/webhooks',
]

async function json(baseUrl, path, { token, method = 'GET', body } = {}) {
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  })
  const text = await res.text()
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 300)}`)
  return text ? JSON.parse(text) : null
}

/**
 * Everything a run needs from the server: the OpenAPI document, an agent credential (issued with the
 * admin token for `agentName` or the first agent), that agent's tools, and ids to aim at.
 * `safe`: the run may not change what is there (the e2e sample shares its database with other specs).
 */
export async function prepareFuzz({ baseUrl, adminToken, agentName, safe = false }) {
  assertLoopback(baseUrl)
  const doc = await json(baseUrl, '/api/v1/openapi.json')
  const agents = (await json(baseUrl, '/api/v1/agents?limit=200', { token: adminToken })).items
  if (agents.length === 0) throw new Error('the fuzzer needs at least one Agent (the demo fleet has some)')
  const agent = agents.find((a) => a.metadata.name === (agentName ?? 'support-triage')) ?? agents[0]
  const credential = await json(baseUrl, `/api/v1/agents/${agent.id}/credentials`, {
    token: adminToken,
    method: 'POST',
    body: { name: `fuzz-${Date.now()}`, expiresInDays: 1 },
  })

  const ids = {}
  const uuids = new Set()
  for (const collection of HARVEST) {
    let items = []
    try {
      items = (await json(baseUrl, `${collection}?limit=100`, { token: adminToken })).items ?? []
    } catch {
      continue
    }
    const found = []
    for (const item of items) {
      if (item.id === agent.id || item.metadata?.name === agent.metadata.name) continue
      if (typeof item.id === 'string') {
        found.push(item.id)
        uuids.add(item.id)
      }
      if (typeof item.metadata?.name === 'string') found.push(item.metadata.name)
    }
    ids[collection] = found
  }

  const listed = await mcpPost(baseUrl, credential.token, { jsonrpc: '2.0', id: 1, method: 'tools/list' })
  const tools = {}
  for (const t of listed.result?.tools ?? []) {
    // A safe run calls only the platform's read-only tools: no upstream calls, no approvals queued.
    if (safe && !['toolroom.list_servers', 'toolroom.list_tools', 'toolroom.inspect_tool', 'toolroom.approval_status'].includes(t.name)) continue
    tools[t.name] = t.inputSchema
  }
  return {
    baseUrl,
    doc,
    ops: operationsOf(doc),
    known: { ids, uuids: [...uuids] },
    tools,
    safe,
    agent: { id: agent.id, name: agent.metadata.name },
    tokens: { admin: adminToken, agent: credential.token },
  }
}

async function mcpPost(baseUrl, token, message) {
  const res = await fetch(`${baseUrl}/mcp`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify(message),
  })
  if (!res.ok) throw new Error(`/mcp ${message.method} as the fuzz agent: ${res.status} ${(await res.text()).slice(0, 300)}`)
  return res.json()
}

/** Case `index` of the run seeded `seed`: the same arguments always give the same request. */
export function generateCase(setup, seed, index, exclude = new Set()) {
  const rng = rngFor(seed, index)
  const ctx = { rng, doc: setup.doc, ops: setup.ops, known: setup.known, tools: setup.tools, exclude, safe: setup.safe }
  const c = rng.chance(0.3) ? mcpCase(ctx) : restCase(ctx)
  return { index, ...c }
}

/** How much of an answer the oracles read (a finding keeps less). */
const READ_BYTES = 256 * 1024

/** Sends one case over `agent` (keep-alive, as clients do); resolves with what happened, never rejects. */
export function send(setup, c, { agent, timeoutMs }) {
  const url = new URL(setup.baseUrl)
  const headers = { ...c.headers }
  if (c.identity !== 'anonymous') headers.authorization = `Bearer ${setup.tokens[c.identity]}`
  const body = c.body === undefined ? undefined : Buffer.from(c.body)
  if (body) headers['content-length'] = String(body.length)
  const started = performance.now()
  return new Promise((resolve) => {
    let settled = false
    let timer
    const done = (outcome) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      resolve({ ...outcome, ms: performance.now() - started })
    }
    let req
    try {
      req = http.request({ host: url.hostname, port: url.port, method: c.method, path: c.path, headers, agent }, onResponse)
    } catch (e) {
      // Node refused to send it (a header or path it will not put on the wire): nothing reached the server.
      return done({ error: `not sent: ${e.code ?? e.message}` })
    }
    function onResponse(res) {
      // GET /mcp with an agent's credential is the 2025-11-25 stream of list_changed notifications,
      // open for as long as the agent listens: answering it promptly is all there is to check.
      if (c.method === 'GET' && String(res.headers['content-type'] ?? '').startsWith('text/event-stream')) {
        done({ status: res.statusCode, body: '', contentType: res.headers['content-type'], headers: res.headers })
        return void res.destroy()
      }
      const chunks = []
      let size = 0
      res.on('data', (d) => {
        if (size < READ_BYTES) chunks.push(d)
        size += d.length
      })
      res.on('end', () =>
        done({
          status: res.statusCode,
          body: Buffer.concat(chunks).toString('utf8').slice(0, READ_BYTES),
          contentType: res.headers['content-type'] ?? '',
          headers: res.headers,
        }),
      )
      res.on('error', (e) => done({ error: e.code ?? e.message }))
    }
    timer = setTimeout(() => {
      req.destroy(new Error('timeout'))
      done({ timedOut: true })
    }, timeoutMs)
    req.on('error', (e) => done({ error: e.code ?? e.message }))
    req.end(body)
  })
}

const isRestCall = (c) => c.channel === 'rest' && /^\/api\/v1\/gateway\/tools\//.test(c.path)

/**
 * What is wrong with an answer that arrived, by the oracles; null when nothing is. A 502 of the REST
 * call endpoint is the tool's failure (counted, not a defect) only when it says which failure and
 * that is not Toolroom's own.
 */
export function judge(setup, c, r) {
  if (r.status >= 500 && !(r.status === 502 && isRestCall(c))) return `HTTP ${r.status}`
  if (r.status === 502) {
    const internal = internalErrorInRest(r.status, r.body)
    if (internal) return internal
  }
  if (c.path === '/mcp' || c.path.startsWith('/mcp?')) {
    if (c.identity === 'anonymous' && r.status >= 200 && r.status < 300) return `anonymous got ${r.status} on /mcp`
    const [internal] = internalErrorsInMcp(r.body ?? '', r.contentType)
    if (internal) return internal
  } else {
    const denied = accessViolation(c.identity, c.access, r.status)
    if (denied) return denied
  }
  const headerText = Object.entries(r.headers ?? {})
    .map(([k, v]) => `${k}: ${v}`)
    .join('\n')
  // Only the Host-header cases: elsewhere an answer may name a tool's own loopback upstream.
  return c.tags.has('host-header') ? internalOrigin(`${headerText}\n${r.body ?? ''}`, setup.baseUrl, originsOfHost(c.headers?.host)) : null
}

/**
 * Sends `count` cases (or until `seconds` pass) with `concurrency` in flight; returns the counts and
 * up to `maxFindings` reproducible findings (5xx, timeouts).
 */
export async function runFuzz(
  setup,
  { seed, count, seconds = Infinity, concurrency = 4, timeoutMs = 15_000, exclude = new Set(), maxFindings = 40, onProgress, only } = {},
) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency })
  const stats = {
    seed,
    requested: count,
    sent: 0,
    byStatus: {},
    serverErrors: 0,
    timeouts: 0,
    oracleFindings: 0,
    droppedConnections: 0,
    cutShort: false,
    connectionErrors: 0,
    connectionErrorsByCause: {},
    connectionErrorCases: [],
    toolFailures: 0,
    byChannel: { rest: 0, mcp: 0 },
    byIdentity: {},
    byTag: {},
    operations: new Set(),
    findings: [],
    generatorErrors: [],
    errorsByOperation: {},
    startedAt: new Date().toISOString(),
    seconds: 0,
  }
  const deadline = Date.now() + seconds * 1000
  const indices = only !== undefined ? [only] : Array.from({ length: count }, (_, i) => i)
  let next = 0
  const t0 = performance.now()
  const worker = async () => {
    while (next < indices.length && Date.now() < deadline) {
      const index = indices[next++]
      let c
      try {
        c = generateCase(setup, seed, index, exclude)
      } catch (e) {
        // A bug of the fuzzer's own: counted (and failing the run), never hidden.
        stats.generatorErrors.push(`case ${index}: ${e.stack ?? e}`)
        continue
      }
      const r = await send(setup, c, { agent, timeoutMs })
      stats.sent++
      stats.byChannel[c.channel]++
      stats.byIdentity[c.identity] = (stats.byIdentity[c.identity] ?? 0) + 1
      stats.operations.add(c.operation)
      for (const tag of c.tags) stats.byTag[tag] = (stats.byTag[tag] ?? 0) + 1
      let defect = null
      if (r.timedOut) {
        stats.timeouts++
        defect = 'timeout'
      } else if (r.error) {
        // Said by cause, so a connection the server dropped can be told from a request Node would not send.
        stats.connectionErrors++
        stats.connectionErrorsByCause[r.error] = (stats.connectionErrorsByCause[r.error] ?? 0) + 1
        // A request Node would not put on the wire never reached the server; anything else (a reset, a
        // connection closed before the answer) is the server's doing.
        if (!r.error.startsWith('not sent')) {
          stats.droppedConnections++
          defect = `connection error ${r.error}`
        }
        if (stats.connectionErrorCases.length < 20)
          stats.connectionErrorCases.push({
            case: index,
            error: r.error,
            method: c.method,
            path: c.path.slice(0, 120),
            tags: [...c.tags],
            bodyBytes: c.body?.length ?? 0,
          })
      } else {
        const klass = `${Math.floor(r.status / 100)}xx`
        stats.byStatus[klass] = (stats.byStatus[klass] ?? 0) + 1
        defect = judge(setup, c, r)
        if (defect?.startsWith('HTTP 5')) stats.serverErrors++
        else if (defect) stats.oracleFindings++
        else if (r.status === 502) stats.toolFailures++
      }
      if (defect) {
        const key = `${defect} ${c.operation}`
        stats.errorsByOperation[key] = (stats.errorsByOperation[key] ?? 0) + 1
        if (stats.findings.length < maxFindings) stats.findings.push(finding(c, r, defect))
      }
      onProgress?.(stats)
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker))
  agent.destroy()
  stats.seconds = (performance.now() - t0) / 1000
  stats.operations = stats.operations.size
  // A run that stopped early (its time ran out) tested less than it was asked to: said, and a failure.
  stats.cutShort = only === undefined && stats.sent + stats.generatorErrors.length < count
  return stats
}

/** Why a run failed, or an empty list: every defect counts, and so does a run that did less than it was asked. */
export function failuresOf(stats) {
  const out = []
  if (stats.serverErrors) out.push(`${stats.serverErrors} × 5xx`)
  if (stats.timeouts) out.push(`${stats.timeouts} timeouts`)
  if (stats.droppedConnections) out.push(`${stats.droppedConnections} dropped connections`)
  if (stats.oracleFindings) out.push(`${stats.oracleFindings} oracle findings`)
  if (stats.cutShort) out.push(`cut short: ${stats.sent} of ${stats.requested} requests sent`)
  if (stats.generatorErrors.length) out.push(`${stats.generatorErrors.length} generator errors`)
  return out
}

/**
 * Rows of the tables an anonymous request must never add to, by table and the column that names a
 * row: read before and after a run with a database to read (DATABASE_URL). The fuzzer's Host-header
 * cases are its only requests that could; an admin's own requests may add a row legitimately (an
 * OAuth client registered at the origin the admin reached: lib/oauth/protected-resource.ts), so a new
 * row is a finding unless it names one of the origins the run's authenticated requests used.
 */
export const ANONYMOUS_STATE_TABLES = { OauthResource: 'identifier' }

export async function countStateRows(databaseUrl) {
  if (!databaseUrl) return null
  const { default: pg } = await import('pg')
  const client = new pg.Client({ connectionString: databaseUrl })
  await client.connect()
  try {
    const out = {}
    for (const [table, column] of Object.entries(ANONYMOUS_STATE_TABLES))
      out[table] = (await client.query(`SELECT "${column}" AS name FROM "${table}"`)).rows.map((r) => String(r.name))
    return out
  } finally {
    await client.end()
  }
}

/** Rows that appeared between two reads (countStateRows) and name none of `legitimateOrigins`, as defects. */
export function stateGrowth(before, after, legitimateOrigins = []) {
  if (!before || !after) return []
  const legitimate = (name) => legitimateOrigins.some((origin) => name === origin || name.startsWith(`${origin}/`))
  return Object.keys(before).flatMap((table) => {
    const added = after[table].filter((name) => !before[table].includes(name) && !legitimate(name))
    return added.length ? [`${added.length} new ${table} rows no authenticated request explains: ${added.slice(0, 5).join(', ')}`] : []
  })
}

function finding(c, r, defect) {
  const clip = (s, n) => (s === undefined ? undefined : s.length > n ? `${s.slice(0, n)}… (${s.length} chars)` : s)
  return {
    defect,
    case: c.index,
    operation: c.operation,
    identity: c.identity,
    tags: [...c.tags],
    request: { method: c.method, path: clip(c.path, 300), contentType: c.headers?.['content-type'], body: clip(c.body, 400) },
    response: r.timedOut ? null : { status: r.status, body: clip(r.body ?? '', 400) },
  }
}

/** Resident memory (kB) of each process listening on `ports` of this machine, with its children; Linux only, else empty. */
export function serverMemory(ports) {
  try {
    const inodes = new Map()
    for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
      if (!fs.existsSync(table)) continue
      for (const line of fs.readFileSync(table, 'utf8').split('\n').slice(1)) {
        const f = line.trim().split(/\s+/)
        if (f.length < 10 || f[3] !== '0A') continue // 0A: LISTEN
        const port = parseInt(f[1].split(':')[1], 16)
        if (ports.includes(port)) inodes.set(f[9], port)
      }
    }
    const out = {}
    for (const pid of fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
      let fds
      try {
        fds = fs.readdirSync(`/proc/${pid}/fd`)
      } catch {
        continue
      }
      for (const fd of fds) {
        let link
        try {
          link = fs.readlinkSync(`/proc/${pid}/fd/${fd}`)
        } catch {
          continue
        }
        const m = /^socket:\[(\d+)\]$/.exec(link)
        if (m && inodes.has(m[1])) {
          out[`port ${inodes.get(m[1])} (pid ${pid})`] = rssKb(Number(pid))
          break
        }
      }
    }
    return out
  } catch {
    return {}
  }
}

export function rssKb(pid) {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN)
  } catch {
    return NaN
  }
}

export function formatSummary(stats, memory) {
  const lines = [
    `fuzz: seed ${stats.seed}, ${stats.sent} of ${stats.requested} requests in ${stats.seconds.toFixed(1)} s (${(stats.sent / stats.seconds).toFixed(0)}/s), ${stats.operations} distinct operations`,
    `  by channel: REST ${stats.byChannel.rest}, MCP ${stats.byChannel.mcp}; by identity: ${Object.entries(stats.byIdentity)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}`,
    `  hostile classes: ${Object.entries(stats.byTag)
      .sort()
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}`,
    `  answers: ${Object.entries(stats.byStatus)
      .sort()
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}; tool failures passed on (502, documented): ${stats.toolFailures}; connection errors: ${stats.connectionErrors}${
      stats.connectionErrors
        ? ` (${Object.entries(stats.connectionErrorsByCause)
            .map(([k, v]) => `${k} ${v}`)
            .join(', ')})`
        : ''
    }`,
    `  5xx: ${stats.serverErrors}, timeouts: ${stats.timeouts}, dropped connections: ${stats.droppedConnections}, oracle findings (internal errors, access, internal origins): ${stats.oracleFindings}${stats.cutShort ? `; CUT SHORT: ${stats.sent} of ${stats.requested} sent` : ''}`,
  ]
  if (stats.generatorErrors.length)
    lines.push(
      `  the fuzzer failed to generate ${stats.generatorErrors.length} cases (a bug of its own):`,
      ...stats.generatorErrors.slice(0, 3).map((e) => `    ${e.split('\n').slice(0, 3).join(' ')}`),
    )
  if (memory)
    for (const [proc, before] of Object.entries(memory.before))
      lines.push(`  RSS ${proc}: ${(before / 1024).toFixed(0)} MB before, ${((memory.after[proc] ?? NaN) / 1024).toFixed(0)} MB after`)
  const worst = Object.entries(stats.errorsByOperation).sort((a, b) => b[1] - a[1])
  if (worst.length) lines.push('  defects by operation:', ...worst.slice(0, 30).map(([k, v]) => `    ${v} × ${k}`))
  for (const f of stats.findings.slice(0, 15))
    lines.push(
      `  case ${f.case} [${f.tags.join(',')}] ${f.defect} ${f.identity} ${f.request.method} ${f.request.path}${f.request.body ? ` body ${JSON.stringify(f.request.body).slice(0, 200)}` : ''}${f.response ? ` → ${f.response.body.slice(0, 200)}` : ''}`,
    )
  return lines.join('\n')
}
