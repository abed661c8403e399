// REST cases derived from the OpenAPI document: every operation, with valid-ish, malformed, oversized
// and hostile path parameters, queries and bodies, as the admin token, the agent credential or nobody.
import { deepNesting, deref, fromSchema, hostileString, randomUuid, wrongType } from './values.mjs'

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])

/** The operations of an OpenAPI document, with their parameters resolved. */
export function operationsOf(doc) {
  const ops = []
  for (const [path, item] of Object.entries(doc.paths))
    for (const [method, op] of Object.entries(item)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue
      const parameters = (op.parameters ?? []).map((p) => deref(p, doc))
      const content = op.requestBody?.content ?? {}
      const json = content['application/json']?.schema
      ops.push({
        method: method.toUpperCase(),
        path,
        operationId: op.operationId,
        public: Array.isArray(op.security) && op.security.length === 0,
        access: op['x-toolroom-access'] ?? (Array.isArray(op.security) && op.security.length === 0 ? 'public' : undefined),
        pathParams: parameters.filter((p) => p.in === 'path'),
        queryParams: parameters.filter((p) => p.in === 'query'),
        bodySchema: json ?? null,
        bodyTypes: Object.keys(content),
      })
    }
  return ops
}

/** The collection a path parameter's ids come from: `/api/v1/tools/{id}/…` → `/api/v1/tools`. */
function collectionOf(path, param) {
  const i = path.indexOf(`{${param}}`)
  if (param === 'toolId') return '/api/v1/tools'
  return path.slice(0, i - 1)
}

const BAD_PATH_SEGMENTS = [
  { tag: 'pct-path', raw: '%ff' },
  { tag: 'pct-path', raw: '%' },
  { tag: 'pct-path', raw: '%e0%80%af' },
  { tag: 'nul', raw: '%00' },
  { tag: 'text', raw: '..' },
  { tag: 'text', raw: '%2e%2e%2f%2e%2e' },
  { tag: 'text', raw: '%2F' },
  { tag: 'text', raw: 'not-a-uuid' },
  { tag: 'text', raw: '00000000-0000-0000-0000-000000000000' },
  { tag: 'text', raw: 'default%2Fnobody-here' },
  { tag: 'unicode', raw: encodeURIComponent('ünï©ødé-🧨') },
  { tag: 'text', raw: '-1' },
]

// (A lone surrogate cannot travel in a URL: encodeURIComponent throws, so it goes as U+FFFD.)
function badCursor(rng, exclude, tags) {
  const b64 = (v) => Buffer.from(typeof v === 'string' ? v : JSON.stringify(v)).toString('base64url')
  if (!exclude.has('nul') && rng.chance(0.1)) {
    tags.add('nul')
    return b64(['default', 'x\u0000', randomUuid(rng)])
  }
  return rng.pick([
    b64(['default', 'x', 'not-a-uuid']),
    b64(['2026-11-23T00:00:00.000Z', 'not-a-uuid']),
    b64(['default', 'x', 12345]),
    b64({ a: 1 }),
    b64('[[[[[[[[[['),
    b64(['bad date', randomUuid(rng)]),
    'not base64 at all ***',
    '',
    'A'.repeat(999),
  ])
}

/**
 * One REST case. `ctx`: { rng, doc, ops, known (collection path → ids), exclude (tags), safe (never
 * touch harvested resources with a changing method, never send a body that could be valid to one) }.
 */
export function restCase(ctx) {
  const { rng, doc, ops, known, exclude, safe } = ctx
  const tags = new Set()
  const identity = rng.weighted({ admin: 5, agent: 2.5, anonymous: 2.5 })
  if (!exclude.has('host-header') && rng.chance(0.04)) return { channel: 'rest', identity: 'anonymous', tags, ...hostHeaderCase(rng, tags) }
  const special = rng.chance(0.04) ? specialCase(rng, ops, exclude, tags) : null
  if (special) return { channel: 'rest', identity, tags, ...special }

  const op = rng.pick(ops)
  const style = rng.weighted({ valid: 4, malformed: 4, hostile: 2 })
  const hostility = style === 'valid' ? 0 : style === 'malformed' ? 0.25 : 0.5
  const touchesState = MUTATING.has(op.method)
  const vctx = { rng, root: doc, hostility, exclude, tags, known: { uuid: known.uuids } }

  let path = op.path
  for (const p of op.pathParams) {
    let raw
    const pool = known.ids[collectionOf(op.path, p.name)]
    if (style !== 'valid' && rng.chance(0.5)) {
      const bad = BAD_PATH_SEGMENTS.filter((s) => !exclude.has(s.tag))
      const pickOne = rng.pick(bad)
      tags.add(pickOne.tag)
      raw = pickOne.raw
      if (!exclude.has('huge') && rng.chance(0.1)) {
        raw = 'a'.repeat(rng.pick([300, 5000]))
        tags.add('huge')
      }
    } else if (pool?.length && !(safe && touchesState) && rng.chance(0.8)) raw = encodeURIComponent(rng.pick(pool))
    else raw = p.schema?.format === 'uuid' || rng.chance(0.5) ? randomUuid(rng) : encodeURIComponent(rng.pick(['default', 'nobody-here', 'x']))
    path = path.replace(`{${p.name}}`, raw)
  }

  const query = []
  for (const p of op.queryParams) {
    if (!rng.chance(p.required ? 1 : 0.35)) continue
    if (p.name === 'cursor' && style !== 'valid' && !exclude.has('bad-cursor')) {
      tags.add('bad-cursor')
      query.push([p.name, badCursor(rng, exclude, tags)])
      continue
    }
    let v = fromSchema(p.schema ?? {}, vctx)
    if (v === undefined) continue
    if (typeof v === 'object' && v !== null) v = JSON.stringify(v)
    query.push([p.name, String(v)])
  }
  if (style === 'hostile' && rng.chance(0.3)) query.push([rng.pick(['q', 'namespace', 'limit', 'zzz']), hostileValueFor(rng, exclude, tags)])
  // A safe run never applies for real: the documents it sends could be valid.
  if (safe && op.path === '/api/v1/apply') query.splice(0, query.length, ['dryRun', 'true'])
  const search = query.length ? `?${query.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v.toWellFormed())}`).join('&')}` : ''

  const headers = {}
  let body
  if (op.bodyTypes.length) {
    if (op.path === '/api/v1/apply') ({ body, contentType: headers['content-type'] } = applyBody(rng, style, exclude, tags))
    else {
      headers['content-type'] =
        style === 'hostile' && rng.chance(0.15)
          ? rng.pick(['text/plain', 'application/x-www-form-urlencoded', 'application/json; charset=latin1', ''])
          : 'application/json'
      body = jsonBody(op, vctx, style, safe && touchesState)
    }
  } else if (style === 'hostile' && rng.chance(0.2)) {
    headers['content-type'] = 'application/json'
    body = '{"unexpected": "body"}'
  }
  return { channel: 'rest', identity, tags, operation: `${op.method} ${op.path}`, access: op.access, method: op.method, path: path + search, headers, body }
}

function hostileValueFor(rng, exclude, tags) {
  const h = hostileString(rng, exclude)
  tags.add(h.tag)
  return h.value
}

function jsonBody(op, vctx, style, mustBeInvalid) {
  const { rng, exclude, tags } = vctx
  const shape = mustBeInvalid
    ? rng.weighted({ topLevel: 3, hostileText: 2 })
    : style === 'valid'
      ? 'schema'
      : style === 'malformed'
        ? rng.weighted({ schema: 8, topLevel: 2 })
        : rng.weighted({ schema: 3, topLevel: 2, hostileText: 4 })
  if (shape === 'schema') return JSON.stringify(fromSchema(op.bodySchema, vctx))
  if (shape === 'topLevel') return JSON.stringify(wrongType(rng, 'object'))
  // Duplicate keys and NUL text can make a valid body (a token named "a\u0000b"): not in a safe run.
  const kind = rng.weighted({
    invalidJson: 3,
    deep: exclude.has('deep-nesting') ? 0 : 2,
    duplicateKeys: exclude.has('duplicate-keys') || mustBeInvalid ? 0 : 1,
    oversized: exclude.has('oversized') ? 0 : 1,
    nulText: exclude.has('nul') || mustBeInvalid ? 0 : 1,
    empty: 1,
  })
  if (kind === 'invalidJson') return rng.pick(['{', '{"a":', '[1,2', '{"a":1}}', "{'a':1}", 'NaN', '\uFEFF{}', '{"a":1e99999}'])
  if (kind === 'deep') {
    tags.add('deep-nesting')
    return deepNesting(rng, rng.pick([200, 5_000, 100_000]))
  }
  if (kind === 'duplicateKeys') {
    tags.add('duplicate-keys')
    return '{"name":"a","name":"b","scopes":["read"],"scopes":["admin"]}'
  }
  if (kind === 'oversized') {
    tags.add('oversized')
    return JSON.stringify({ name: 'x'.repeat(rng.pick([70_000, 1_100_000, 2_500_000])) })
  }
  if (kind === 'nulText') {
    tags.add('nul')
    return '{"name":"a\u0000b"}'
  }
  return ''
}

function applyBody(rng, style, exclude, tags) {
  const yamlType = rng.pick(['application/yaml', 'application/json', 'text/plain', 'text/yaml'])
  const valid = `apiVersion: toolroom.dev/v1alpha1\nkind: Unit\nmetadata:\n  name: fuzz-${rng.int(0, 99)}\n  namespace: default\nspec: {}\n`
  if (style === 'valid') return { body: valid, contentType: 'application/yaml' }
  const kind = rng.weighted({
    garbage: 2,
    badKind: 2,
    separators: exclude.has('yaml-separators') ? 0 : 1,
    anchors: 1,
    deep: exclude.has('deep-nesting') ? 0 : 1,
    duplicateKeys: exclude.has('duplicate-keys') ? 0 : 1,
    nul: exclude.has('nul') ? 0 : 1,
  })
  if (kind === 'garbage') return { body: rng.pick(['{', ': : :', '- - -\n  x', '%YAML 9.9\n---\n', '\t\tbad: indent', '!!binary abc']), contentType: yamlType }
  if (kind === 'badKind') return { body: valid.replace('Unit', rng.pick(['Nope', '', '"Unit"\nkind: Tool', '[]'])), contentType: yamlType }
  if (kind === 'separators') {
    tags.add('yaml-separators')
    return { body: '---\n'.repeat(rng.pick([1000, 250_000])), contentType: 'application/yaml' }
  }
  if (kind === 'anchors')
    return {
      body: 'a: &a ["x","x","x","x","x","x","x","x","x"]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\ne: [*d,*d,*d,*d,*d,*d,*d,*d,*d]\n',
      contentType: 'application/yaml',
    }
  if (kind === 'deep') {
    tags.add('deep-nesting')
    return { body: deepNesting(rng, rng.pick([1000, 50_000])), contentType: rng.pick(['application/json', 'application/yaml']) }
  }
  if (kind === 'duplicateKeys') {
    tags.add('duplicate-keys')
    return {
      body: '{"apiVersion":"toolroom.dev/v1alpha1","kind":"Unit","kind":"Secret","metadata":{"name":"fuzz-dup","namespace":"default"},"spec":{}}',
      contentType: 'application/json',
    }
  }
  tags.add('nul')
  return { body: valid.replace('spec: {}', 'spec:\n  description: "a\\0b"'), contentType: 'application/yaml' }
}

/** Requests no operation describes: TRACE, PATCH on collections, unknown paths, broken escapes. */
function specialCase(rng, ops, exclude, tags) {
  const choices = [
    !exclude.has('trace') && (() => (tags.add('trace'), { operation: 'TRACE *', method: 'TRACE', path: rng.pick(ops).path.replace(/\{[^}]+\}/g, 'x') })),
    !exclude.has('patch-collection') &&
      (() => (
        tags.add('patch-collection'),
        {
          operation: 'PATCH collection',
          method: 'PATCH',
          path: rng.pick(ops.filter((o) => !o.path.includes('{'))).path,
          headers: { 'content-type': 'application/json' },
          body: '{}',
        }
      )),
    () => ({
      operation: 'unknown path',
      method: rng.pick(['GET', 'POST', 'DELETE']),
      path: rng.pick(['/api/v1/nope', '/api/v1/', '/api/v2/tools', '/api/v1/tools/x/y/z', '/api/v1//tools', '/api/health?x=%ff']),
    }),
    !exclude.has('pct-path') &&
      (() => (
        tags.add('pct-path'),
        { operation: 'broken escape', method: 'GET', path: rng.pick(['/api/v1/%ff', '/api/v1/tools/%', '/%ff', '/api/v1/agents/%c0%ae%c0%ae']) }
      )),
    () => ({ operation: 'OPTIONS / HEAD', method: rng.pick(['OPTIONS', 'HEAD']), path: rng.pick(ops).path.replace(/\{[^}]+\}/g, 'x') }),
  ].filter(Boolean)
  return rng.pick(choices)()
}

/** Where OAuth clients discover this server: the documents (and /mcp's challenge) name origins taken from the request. */
const DISCOVERY_PATHS = [
  '/.well-known/oauth-protected-resource/mcp',
  '/.well-known/oauth-protected-resource',
  '/.well-known/oauth-authorization-server',
  '/.well-known/oauth-authorization-server/api/auth',
  '/mcp',
]

/**
 * An anonymous request to an OAuth discovery route with a made-up or malformed Host (and sometimes
 * X-Forwarded-Host/-Proto, which no trusted proxy sent). Oracles: no state is created (the run counts
 * OauthResource rows before and after), and no answer shows an origin of the server's inside.
 */
function hostHeaderCase(rng, tags) {
  tags.add('host-header')
  const n = rng.int(0, 99_999)
  const host = rng.pick([
    `fuzz-${n}.example`,
    `fuzz-${n}.example:8443`,
    `FUZZ-${n}.Example.`,
    `${rng.int(1, 254)}.${rng.int(0, 255)}.${rng.int(0, 255)}.${rng.int(1, 254)}`,
    `[2001:db8::${n.toString(16)}]`,
    'localhost',
    'a b',
    'host:99999',
    'host:-1',
    '[::1',
    'x'.repeat(300),
    'evil.example@127.0.0.1',
    'evil.example/path?q',
    '%65vil.example',
    'ünïcödé.example',
    '',
    ':80',
    '.',
  ])
  const path = rng.pick(DISCOVERY_PATHS)
  const headers = { host }
  if (rng.chance(0.3)) headers['x-forwarded-host'] = rng.pick([`fwd-${n}.example`, 'a b', ''])
  if (rng.chance(0.2)) headers['x-forwarded-proto'] = rng.pick(['https', 'gopher', ''])
  if (path === '/mcp')
    return {
      operation: 'Host header /mcp',
      method: 'POST',
      path,
      headers: { ...headers, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
    }
  return { operation: `Host header GET ${path}`, method: 'GET', path, headers }
}
