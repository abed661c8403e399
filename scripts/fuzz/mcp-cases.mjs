// JSON-RPC cases for /mcp derived from the MCP SDKs' own zod schemas (every client request and
// notification, turned into JSON Schema): valid-ish requests, params of the wrong type, `_meta` abuse,
// batches, notifications and cancellations with guessed ids, responses nobody asked for, broken
// envelopes and broken JSON; sent mostly with the agent credential. Both revisions `/mcp` serves:
// 2025-11-25 from SDK v1's schemas, 2026-07-28 from SDK v2's (@modelcontextprotocol/core), with the
// per-request `_meta` envelope and the mirrored `Mcp-Method`/`Mcp-Name` headers, valid or abused.
import * as M from '@modelcontextprotocol/core'
import * as T from '@modelcontextprotocol/sdk/types.js'
import * as z from 'zod'
import { deepNesting, fromSchema, hostileString, wrongType } from './values.mjs'

function methodsOf(union) {
  return union.options.map((option) => ({
    method: option.shape.method.value,
    schema: z.toJSONSchema(option, { unrepresentable: 'any', io: 'input' }),
  }))
}

let cached = null
/** Client requests and notifications as the SDK defines them, each with its JSON Schema. */
export function mcpSchemas() {
  cached ??= { requests: methodsOf(T.ClientRequestSchema), notifications: methodsOf(T.ClientNotificationSchema) }
  return cached
}

const MODERN = '2026-07-28'
let cachedModern = null
/**
 * 2026-07-28 client requests (SDK v2's schemas). `subscriptions/listen` is left out: its answer is a
 * stream that stays open while the client listens, which the fuzzer would count as a timeout.
 */
export function modernSchemas() {
  cachedModern ??= { requests: methodsOf(M.ClientRequestSchema).filter((r) => r.method !== 'subscriptions/listen') }
  return cachedModern
}

/** One /mcp case. `ctx`: { rng, tools (name → inputSchema, the agent's), exclude, safe }. */
export function mcpCase(ctx) {
  const { rng } = ctx
  const tags = new Set()
  const identity = rng.weighted({ agent: 7, admin: 1.5, anonymous: 1.5 })
  const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }
  if (rng.chance(0.5))
    headers['mcp-protocol-version'] = rng.chance(0.9) ? rng.pick(T.SUPPORTED_PROTOCOL_VERSIONS) : rng.pick(['1999-01-01', 'x'.repeat(200), ''])
  const kind = rng.weighted({ single: 6, modern: 3, batch: 1.5, notification: 1, envelope: 1, bytes: 1, method: 0.3 })
  let body
  let operation
  if (kind === 'modern') {
    const m = modernMessage(ctx, tags, headers)
    body = JSON.stringify(m)
    operation = `mcp ${MODERN} ${m.method ?? '?'}`
  } else if (kind === 'single') {
    const m = message(ctx, tags)
    body = JSON.stringify(m)
    operation = `mcp ${m.method ?? '?'}`
  } else if (kind === 'batch') {
    const n = rng.weighted({ small: 8, empty: 1, over: 1 })
    const size = n === 'small' ? rng.int(1, 6) : n === 'empty' ? 0 : 101
    const messages = Array.from({ length: size }, () => (rng.chance(0.7) ? message(ctx, tags) : notification(ctx, tags)))
    body = JSON.stringify(messages)
    operation = `mcp batch of ${size}`
  } else if (kind === 'notification') {
    const m = notification(ctx, tags)
    body = JSON.stringify(m)
    operation = `mcp ${m.method}`
  } else if (kind === 'envelope') {
    body = JSON.stringify(brokenEnvelope(ctx, tags))
    operation = 'mcp broken envelope'
  } else if (kind === 'bytes') {
    body = brokenBytes(ctx, tags)
    operation = 'mcp broken JSON'
  } else {
    return {
      channel: 'mcp',
      identity,
      tags,
      operation: 'mcp wrong HTTP method',
      method: rng.pick(['GET', 'DELETE', 'PUT', 'OPTIONS']),
      path: '/mcp',
      headers,
      body: undefined,
    }
  }
  if (rng.chance(0.03)) headers['content-type'] = rng.pick(['text/plain', 'application/x-www-form-urlencoded', ''])
  return { channel: 'mcp', identity, tags, operation, method: 'POST', path: '/mcp', headers, body }
}

const id = (rng) => (rng.chance(0.7) ? rng.int(0, 200) : `req-${rng.int(0, 200)}`)

/** A request: valid-ish from the SDK schema, or with its params or `_meta` abused. */
function message(ctx, tags) {
  const { rng, tools, exclude } = ctx
  const { requests } = mcpSchemas()
  const toolNames = Object.keys(tools)
  const callTool = toolNames.length > 0 && rng.chance(0.35)
  const request = callTool ? requests.find((r) => r.method === 'tools/call') : rng.pick(requests)
  const hostility = rng.weighted({ 0: 5, 0.2: 3, 0.5: 2 })
  const vctx = { rng, hostility: Number(hostility), exclude, tags }
  let params
  if (callTool) {
    const name = rng.chance(0.85) ? rng.pick(toolNames) : rng.pick(['nope.nope', '', 'x'.repeat(500), ...(ctx.safe ? [] : ['toolroom.call_tool'])])
    params = { name, arguments: fromSchema(tools[name] ?? { type: 'object' }, vctx) ?? {} }
    if (name === 'toolroom.call_tool')
      params.arguments = { name: rng.pick(toolNames), arguments: {}, ...(rng.chance(0.5) ? { idempotencyKey: `k-${rng.int(0, 9)}` } : {}) }
  } else params = fromSchema(request.schema.properties.params ?? { type: 'object' }, vctx)
  const m = { jsonrpc: '2.0', id: id(rng), method: request.method }
  if (params !== undefined) m.params = params
  const abuse = rng.weighted({ none: 6, params: exclude.has('mcp-bad-params') ? 0 : 1.5, meta: exclude.has('mcp-meta') ? 0 : 1.5 })
  if (abuse === 'params') {
    tags.add('mcp-bad-params')
    m.params = rng.pick([[], [1, 2], 'x', 5, true, null])
  } else if (abuse === 'meta') {
    tags.add('mcp-meta')
    m.params = typeof m.params === 'object' && m.params !== null && !Array.isArray(m.params) ? m.params : {}
    m.params._meta = rng.pick([
      5,
      'x',
      [],
      { progressToken: rng.pick([{}, 1.5, [], true, null]) },
      { progressToken: 'x'.repeat(rng.pick([10, 100_000])) },
      { idempotencyKey: rng.pick([5, {}, 'k'.repeat(10_000)]) },
      { 'toolroom/waitForApprovalSeconds': rng.pick([-1, 1e9, 'x', 0.5]) },
      Object.fromEntries(Array.from({ length: 2000 }, (_, i) => [`k${i}`, i])),
    ])
  }
  return m
}

/**
 * A 2026-07-28 request: the per-request envelope in `_meta` and the headers the revision wants
 * mirrored, each sometimes abused (a version it does not serve, capabilities of the wrong type, an
 * envelope with one field, headers that disagree with the body, a session id it never issued).
 */
function modernMessage(ctx, tags, headers) {
  const { rng, tools, exclude } = ctx
  tags.add('mcp-2026')
  const { requests } = modernSchemas()
  const toolNames = Object.keys(tools)
  const callTool = toolNames.length > 0 && rng.chance(0.35)
  const request = callTool ? requests.find((r) => r.method === 'tools/call') : rng.pick(requests)
  const vctx = { rng, hostility: Number(rng.weighted({ 0: 5, 0.2: 3, 0.5: 2 })), exclude, tags }
  let params
  if (callTool) {
    const name = rng.chance(0.85) ? rng.pick(toolNames) : rng.pick(['nope.nope', '', 'x'.repeat(500)])
    params = { name, arguments: fromSchema(tools[name] ?? { type: 'object' }, vctx) ?? {} }
  } else params = fromSchema(request.schema.properties.params ?? { type: 'object' }, vctx)
  if (typeof params !== 'object' || params === null || Array.isArray(params)) params = {}
  const envelope = { 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientCapabilities': {} }
  const abuse = rng.weighted({ none: 5, envelope: exclude.has('mcp-meta') ? 0 : 2, headers: 2 })
  if (abuse === 'envelope') {
    tags.add('mcp-meta')
    const broken = rng.pick([
      { ...envelope, 'io.modelcontextprotocol/protocolVersion': rng.pick(['2025-11-25', '2099-01-01', '', 5, null, {}, 'x'.repeat(10_000)]) },
      { ...envelope, 'io.modelcontextprotocol/clientCapabilities': rng.pick([5, 'x', [], null, { sampling: 'yes' }, { elicitation: { form: 1 } }]) },
      { 'io.modelcontextprotocol/protocolVersion': MODERN },
      { 'io.modelcontextprotocol/clientCapabilities': {} },
      { ...envelope, progressToken: rng.pick([{}, 1.5, [], true, 'x'.repeat(100_000)]) },
      { ...envelope, 'io.modelcontextprotocol/clientInfo': rng.pick([5, { name: 'x'.repeat(50_000) }, []]) },
      { ...envelope, ...Object.fromEntries(Array.from({ length: 2000 }, (_, i) => [`k${i}`, i])) },
    ])
    params._meta = broken
  } else params._meta = { ...(params._meta && typeof params._meta === 'object' && !Array.isArray(params._meta) ? params._meta : {}), ...envelope }
  const m = { jsonrpc: '2.0', id: id(rng), method: request.method, params }
  headers['mcp-protocol-version'] = MODERN
  headers['mcp-method'] = request.method
  if (typeof params.name === 'string' && /^[\x21-\x7e]{1,200}$/.test(params.name)) headers['mcp-name'] = params.name
  if (abuse === 'headers') {
    tags.add('mcp-2026-headers')
    const which = rng.weighted({ method: 2, name: 2, version: 2, session: 1, missing: 1 })
    if (which === 'method') headers['mcp-method'] = rng.pick(['tools/list', 'initialize', 'x'.repeat(5000), '', 'tools/call '])
    else if (which === 'name') headers['mcp-name'] = rng.pick(['other.tool', 'x'.repeat(5000), '', 'nope'])
    else if (which === 'version') headers['mcp-protocol-version'] = rng.pick(['2025-11-25', '2099-01-01', 'x'.repeat(200), ''])
    else if (which === 'session') headers['mcp-session-id'] = rng.pick(['abc', 'x'.repeat(5000)])
    else delete headers['mcp-method']
  }
  return m
}

/** A notification: cancellations of guessed ids (someone else's, perhaps), progress, the rest. */
function notification(ctx, tags) {
  const { rng, exclude } = ctx
  const { notifications } = mcpSchemas()
  if (rng.chance(0.5)) {
    tags.add('mcp-cancel')
    return { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: rng.chance(0.8) ? id(rng) : wrongType(rng, 'string'), reason: 'fuzz' } }
  }
  const n = rng.pick(notifications)
  const params = fromSchema(n.schema.properties.params ?? { type: 'object' }, { rng, hostility: rng.chance(0.5) ? 0.3 : 0, exclude, tags })
  return { jsonrpc: '2.0', method: n.method, ...(params !== undefined ? { params } : {}) }
}

function brokenEnvelope(ctx, tags) {
  const { rng, exclude } = ctx
  const h = hostileString(rng, exclude)
  tags.add(h.tag)
  return rng.pick([
    { jsonrpc: '1.0', id: 1, method: 'ping' },
    { id: 1, method: 'ping' },
    { jsonrpc: '2.0', id: null, method: 'ping' },
    { jsonrpc: '2.0', id: {}, method: 'ping' },
    { jsonrpc: '2.0', id: 1.5, method: 'ping' },
    { jsonrpc: '2.0', id: 1, method: 5 },
    { jsonrpc: '2.0', id: 1, method: h.value },
    { jsonrpc: '2.0', id: h.value, method: 'tools/list' },
    { jsonrpc: '2.0', id: 1, result: {} },
    { jsonrpc: '2.0', id: 1, error: { code: -1, message: 'x' } },
    { jsonrpc: '2.0', id: 1 },
    { jsonrpc: '2.0' },
    {},
    [],
    'ping',
    7,
    null,
  ])
}

function brokenBytes(ctx, tags) {
  const { rng, exclude } = ctx
  const kind = rng.weighted({
    truncated: 3,
    deep: exclude.has('deep-nesting') ? 0 : 1,
    empty: 1,
    oversized: exclude.has('oversized') ? 0 : 1,
    nul: exclude.has('nul') ? 0 : 1,
  })
  if (kind === 'truncated')
    return rng.pick(['{"jsonrpc":"2.0","id":1,"method":"pi', '{', '[', '{"jsonrpc":"2.0",}', '\u0000\u0001', '\uFEFF{"jsonrpc":"2.0","id":1,"method":"ping"}'])
  if (kind === 'empty') return ''
  if (kind === 'deep') {
    tags.add('deep-nesting')
    return `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","arguments":{"a":${deepNesting(rng, rng.pick([500, 20_000]))}}}}`
  }
  if (kind === 'oversized') {
    tags.add('oversized')
    return JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { _meta: { pad: 'x'.repeat(rng.pick([500_000, 1_100_000])) } } })
  }
  tags.add('nul')
  return '{"jsonrpc":"2.0","id":1,"method":"tools/list\u0000"}'
}
