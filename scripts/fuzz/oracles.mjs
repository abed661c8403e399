// The fuzzer's oracles: pure judgements of one answer, apart from the I/O so the property tests
// (tests/unit/fuzz-oracles-properties.test.ts) can hold them to their word. Each returns the defect
// it sees as a short text, or null.

/** `data.errorCode` of Toolroom's own failures (lib/gateway/tool-errors.ts, INTERNAL_FAILURE). */
export const INTERNAL_ERROR_CODE = 'internal'
const INTERNAL_RPC = -32603

/**
 * The JSON-RPC messages in an /mcp answer: a JSON body (one message or a batch) or an event stream
 * whose `data:` lines carry them. Text that is neither gives no messages.
 */
export function jsonRpcMessages(body, contentType = '') {
  const parse = (text) => {
    try {
      const v = JSON.parse(text)
      return Array.isArray(v) ? v : [v]
    } catch {
      return []
    }
  }
  if (/text\/event-stream/i.test(contentType))
    return body
      .split(/\r?\n/)
      .filter((line) => line.startsWith('data:'))
      .flatMap((line) => parse(line.slice(5).trim()))
  return parse(body)
}

/**
 * A -32603 is the tool's failure only when its data names the failure and the name is not
 * Toolroom's own: an internal error, an exception the SDK turned into -32603 ("Internal error", no
 * data), or one the gateway front caught, are Toolroom's defects however they are dressed.
 */
export function internalRpcError(error) {
  if (!error || typeof error !== 'object' || error.code !== INTERNAL_RPC) return null
  const code = error.data && typeof error.data === 'object' ? error.data.errorCode : undefined
  if (typeof code === 'string' && code !== INTERNAL_ERROR_CODE) return null
  return `internal error (-32603${code ? `, ${code}` : ', no errorCode'}): ${String(error.message ?? '').slice(0, 200)}`
}

/** Every JSON-RPC error of an /mcp answer that is Toolroom's own (see internalRpcError). */
export function internalErrorsInMcp(body, contentType) {
  const out = []
  for (const m of jsonRpcMessages(body, contentType)) {
    const d = m && typeof m === 'object' ? internalRpcError(m.error) : null
    if (d) out.push(d)
  }
  return out
}

/** The REST call endpoint's 502 is the tool's failure only with an `rpcCode` -32603 whose data names a failure that is not Toolroom's. */
export function internalErrorInRest(status, body) {
  if (status !== 502) return null
  let problem
  try {
    problem = JSON.parse(body)
  } catch {
    return 'a 502 that is not a problem document'
  }
  if (problem?.rpcCode !== INTERNAL_RPC) return `a 502 with rpcCode ${problem?.rpcCode}`
  return internalRpcError({ code: problem.rpcCode, message: problem.detail, data: problem.data })
}

/**
 * Who may reach an operation, from its contract (`x-toolroom-access` in the OpenAPI document):
 * people's tokens the people's routes, agent credentials the agent routes, anyone the public ones.
 */
export function mayReach(identity, access) {
  if (access === undefined || access === 'public') return true
  if (identity === 'anonymous') return false
  if (identity === 'agent') return access === 'agent'
  return access !== 'agent'
}

/** A success for a caller the operation's contract does not admit. */
export function accessViolation(identity, access, status) {
  if (status < 200 || status >= 300 || mayReach(identity, access)) return null
  return `${identity} got ${status} on a route for ${access}`
}

/** The forms of a secret an answer must never carry: as is, base64 (both alphabets), URL-encoded, JSON-escaped. */
export function secretForms(secret) {
  const forms = new Set([secret])
  const b = Buffer.from(secret, 'utf8')
  forms.add(b.toString('base64').replace(/=+$/, ''))
  forms.add(b.toString('base64url'))
  forms.add(encodeURIComponent(secret))
  forms.add(encodeURIComponent(secret).replace(/%20/g, '+'))
  forms.add(JSON.stringify(secret).slice(1, -1))
  forms.add(JSON.stringify(JSON.stringify(secret).slice(1, -1)).slice(1, -1))
  return [...forms].filter((f) => f.length >= 6)
}

/** The first form of any secret in `text`, as a defect. */
export function leakedSecret(text, secrets) {
  for (const secret of secrets)
    for (const form of secretForms(secret)) if (text.includes(form)) return `an injected secret reached the answer (${form === secret ? 'as is' : 'encoded'})`
  return null
}

/**
 * An origin of the server's inside in an answer: a loopback address with a port other than the one
 * the client used (`publicOrigin`) and the upstreams' own (`allowed`, which a tool's error may name),
 * such as the web server behind the front (`http://localhost:3201`), which only a misread Host shows.
 * A loopback origin without a port names no listener of ours and is left alone.
 */
export function internalOrigin(text, publicOrigin, allowed = []) {
  const known = new Set([publicOrigin, ...allowed].filter((o) => URL.canParse(o)).map((o) => new URL(o).origin))
  const re = /\bhttps?:\/\/(?:localhost|127(?:\.\d{1,3}){3}|\[::1\]|0\.0\.0\.0):\d+(?![\w.:-])/gi
  for (const m of text.matchAll(re)) {
    if (!URL.canParse(m[0])) continue
    const url = new URL(m[0])
    if (url.port && !known.has(url.origin)) return `an internal origin in the answer: ${m[0]}`
  }
  return null
}

/** The origins a Host header names itself (`Host: localhost` makes `http://localhost` the client's own, not an internal one). */
export function originsOfHost(host) {
  return typeof host === 'string' && host ? [`http://${host}`, `https://${host}`].filter((o) => URL.canParse(o)) : []
}

/** A call that outlived its budget: `timeoutMs` is the whole call's, retries included. */
export function overBudget(elapsedMs, timeoutMs, marginMs) {
  return elapsedMs > timeoutMs + marginMs ? `the call took ${Math.round(elapsedMs)} ms, over its timeoutMs ${timeoutMs} (+${marginMs} ms margin)` : null
}

/** Text of a stack overflow or similar crash of Toolroom's that reached the client. */
export function crashText(text) {
  const m = /Maximum call stack size exceeded|RangeError|TypeError: |Cannot read propert/i.exec(text)
  return m ? `a crash reached the client: ${m[0]}` : null
}
