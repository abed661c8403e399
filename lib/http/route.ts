// The one wrapper around every API route handler: request id, authentication and access, bounded
// body reading, zod parsing of params/query/body, problem+json for every error, and (when
// TOOLROOM_CHECK_RESPONSES=1, as in the integration tests) every answer held to its contract.
import 'server-only'
import { randomUUID } from 'node:crypto'
import type { z } from 'zod'
import { type Actor, isAllowed } from '@/lib/auth/access-rules'
import { authenticateAgent } from '@/lib/auth/authenticate-agent'
import { bearerToken } from '@/lib/auth/secret-token'
import { checkSameOrigin } from '@/lib/auth/same-origin'
import { authenticate } from '@/lib/sign-in/authenticate'
import { AppError } from '@/lib/errors/app-error'
import { withLogContext } from '@/lib/observability/logger'
import { countCacheLookup, observeHttpRequest } from '@/lib/observability/metrics'
import { withSpan } from '@/lib/observability/tracing'
import { fieldOf, findInexactNumber } from '@/lib/json/exact-numbers'
import { fieldErrorsFromZod } from './zod-issues'
import { STORABLE_TEXT_MESSAGE, STORABLE_TEXT_RULE, unstorableFields } from '@/lib/storage/storable-text'
import { readBounded } from './read-bounded'
import { DEFAULT_MAX_BODY_BYTES, isTextBody, type RouteContract } from './contract'
import { problemResponse, toAppError } from '@/lib/errors/problem'
import { mismatchesOf, responseChecks, responseMismatches } from './response-check'
import { prefersYaml, yamlResponse } from './yaml-answer'
import { validatorHeaders, validatorOf } from './conditional-read'
import { matchesAny, parseIfNoneMatch } from './if-none-match'
import { publicOrigin } from '@/lib/request-origin/public-origin'

type Infer<T> = T extends z.ZodType ? z.output<T> : undefined

export interface RouteContext<C extends RouteContract> {
  params: Infer<C['params']>
  query: Infer<C['query']>
  body: C['body'] extends { text: true } ? string : Infer<C['body']>
  actor: Actor
  request: Request
  requestId: string
}

type NextContext = { params: Promise<Record<string, string | string[]>> }

export function route<C extends RouteContract>(contract: C, handler: (ctx: RouteContext<C>) => Promise<unknown>) {
  const answer = observedHandler(contract, routeHandler(contract, handler))
  if (!responseChecks()) return answer
  return async function handleChecked(request: Request, next?: NextContext): Promise<Response> {
    const response = await answer(request, next)
    const mismatches = await mismatchesOf(contract, response)
    if (mismatches.length === 0) return response
    const what = `${contract.method} ${contract.path} (${contract.operationId}) answered ${response.status} against its contract: ${mismatches.slice(0, 10).join('; ')}`
    responseMismatches.push(what)
    console.error(`[api] ${what}`)
    const requestId = response.headers.get('x-request-id') ?? undefined
    return problemResponse(new AppError('INTERNAL', what), new URL(request.url).pathname, requestId, requestId ? { 'x-request-id': requestId } : {})
  }
}

type Handle = (request: Request, requestId: string, next?: NextContext) => Promise<Response>

function observedHandler(contract: RouteContract, handle: Handle) {
  // One span and one latency observation per request, named by the route's template (never its ids).
  return async function observed(request: Request, next?: NextContext): Promise<Response> {
    const requestId = request.headers.get('x-request-id')?.slice(0, 128) || randomUUID()
    const t0 = performance.now()
    const parent = { traceparent: request.headers.get('traceparent'), tracestate: request.headers.get('tracestate') }
    const response = await withLogContext({ requestId }, () =>
      withSpan(
        `${contract.method} ${contract.path}`,
        { kind: 'server', parent, attributes: { 'http.request.method': contract.method, 'http.route': contract.path, 'toolroom.request_id': requestId } },
        async (span) => {
          const answer = await handle(request, requestId, next)
          span.setAttributes({ 'http.response.status_code': answer.status })
          if (answer.status >= 500) span.fail(`HTTP ${answer.status}`)
          return answer
        },
      ),
    )
    observeHttpRequest(contract.path, contract.method, response.status, (performance.now() - t0) / 1000)
    return response
  }
}

function routeHandler<C extends RouteContract>(contract: C, handler: (ctx: RouteContext<C>) => Promise<unknown>): Handle {
  return async function handle(request: Request, requestId: string, next?: NextContext): Promise<Response> {
    const instance = new URL(request.url).pathname
    try {
      const actor = await callerOf(request, contract)
      if (!actor && contract.access !== 'public')
        throw new AppError(
          'UNAUTHORIZED',
          contract.access === 'agent' ? 'send an agent credential (Authorization: Bearer tra_…)' : 'sign in or send an API token',
        )
      if (actor && !(actor.kind === 'agent' && contract.agentCredentials === 'own') && !isAllowed(actor, contract.access)) throw forbidden(contract)
      // CSRF: a browser sends the session cookie along with any site's request; bearer tokens it never sends by itself.
      if (actor?.via !== 'bearer' && !SAFE_METHODS.has(request.method)) checkSameOrigin(request)

      const rawParams = (await next?.params) ?? {}
      const rawQuery = queryObject(new URL(request.url).searchParams, contract.query)
      refuseUnstorable(rawParams, 'path')
      refuseUnstorable(rawQuery, 'query')
      const params = parseWith(contract.params, rawParams, 'BAD_REQUEST', 'path')
      const query = parseWith(contract.query, rawQuery, 'BAD_REQUEST', 'query')
      const body = contract.body ? await readBody(request, contract) : undefined

      // After access is checked and the address parsed, before any work: a client holding the current
      // answer is told so without it being computed again.
      const yaml = contract.yamlAnswer === true && prefersYaml(request)
      const etag =
        contract.etag && SAFE_METHODS.has(request.method) && !(contract.etag.exceptWith && (query as Record<string, unknown>)?.[contract.etag.exceptWith])
          ? await tagOf(contract, contract.etag, { params, query, actor, request }, yaml)
          : null
      const condition = etag ? parseIfNoneMatch(request.headers.get('if-none-match')) : null
      // `*` holds when the answer exists, which only computing it tells.
      if (etag && condition && !condition.any && matchesAny(condition, etag)) return notModified(etag, yaml, requestId)

      const result = await handler({ params, query, body, actor: actor!, request, requestId } as RouteContext<C>)
      const response = yaml ? await yamlResponse(result, contract.successStatus ?? 200) : result instanceof Response ? result : respond(contract, result)
      if (etag && response.ok) {
        if (condition?.any) return notModified(etag, yaml, requestId)
        if (condition) countCacheLookup('conditional_read', false)
        for (const [name, value] of Object.entries(validatorHeaders(etag, contract.yamlAnswer === true))) response.headers.set(name, value)
      }
      response.headers.set('x-request-id', requestId)
      return response
    } catch (error) {
      const appError = toAppError(error)
      if (appError) return problemResponse(appError, instance, requestId, { 'x-request-id': requestId })
      console.error(`[api] ${request.method} ${instance} failed (request ${requestId})`, error)
      return problemResponse(new AppError('INTERNAL', `unexpected error; quote request id ${requestId} when reporting it`), instance, requestId, {
        'x-request-id': requestId,
      })
    }
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

type Addressed = { params: unknown; query: unknown; actor: Actor | null; request: Request }

function tagOf(contract: RouteContract, etag: NonNullable<RouteContract['etag']>, { params, query, actor, request }: Addressed, yaml: boolean) {
  return validatorOf(etag, {
    operationId: contract.operationId,
    params,
    query,
    representation: yaml ? 'yaml' : 'json',
    actor,
    origin: etag.varies?.includes('origin') ? publicOrigin(request) : '',
  })
}

/**
 * The tag a plain GET of the address a watch follows carries now, as this wrapper derives it for that
 * GET: the same query without `watchParams` (the parameters that mean something only to a watch), in
 * JSON. A watch's notices carry it (docs/design/resource-model.md#watch).
 */
export function plainReadTag<C extends RouteContract>(contract: C, ctx: RouteContext<C>, watchParams: readonly string[]): Promise<string | null> {
  if (!contract.etag) return Promise.resolve(null)
  const query = Object.fromEntries(Object.entries((ctx.query ?? {}) as Record<string, unknown>).filter(([key]) => !watchParams.includes(key)))
  return tagOf(contract, contract.etag, { ...ctx, query }, false)
}

function notModified(etag: string, negotiated: boolean, requestId: string): Response {
  countCacheLookup('conditional_read', true)
  return new Response(null, { status: 304, headers: { ...validatorHeaders(etag, negotiated), 'x-request-id': requestId } })
}

function forbidden(contract: RouteContract): AppError {
  const needs = `this needs the "${contract.access}" permission`
  const rule = contract.accessRule
  return rule ? new AppError('FORBIDDEN', `${rule.message}: ${needs}`, [rule]) : new AppError('FORBIDDEN', needs)
}

async function callerOf(request: Request, contract: RouteContract): Promise<Actor | null> {
  // Agent routes (the gateway) accept agent credentials only, never a person's session or an API
  // token; routes open to an agent for its own records take its credential besides theirs.
  if (contract.access === 'agent' || (contract.agentCredentials === 'own' && bearerToken(request)?.startsWith('tra_'))) {
    const agent = await authenticateAgent(request)
    return agent ? { kind: 'agent', id: agent.credentialId, name: `${agent.namespace}/${agent.name}`, roles: [], via: 'bearer', agent } : null
  }
  return authenticate(request)
}

function respond(contract: RouteContract, result: unknown): Response {
  const status = contract.successStatus ?? 200
  if (status === 204) return new Response(null, { status })
  if (contract.responseContentType && typeof result === 'string')
    return new Response(result, { status, headers: { 'content-type': contract.responseContentType } })
  return Response.json(result, { status })
}

// Ids, filters and names that PostgreSQL cannot hold (NUL, unpaired surrogates) are refused here, for
// every route, before any handler or query sees them.
function refuseUnstorable(value: unknown, where: string, safeTextFields?: readonly string[]) {
  const fields = unstorableFields(value, safeTextFields)
  if (fields.length === 0) return
  const errors = fields.map((field) => ({ field, rule: STORABLE_TEXT_RULE, message: STORABLE_TEXT_MESSAGE }))
  throw new AppError('VALIDATION_FAILED', `invalid ${where}: ${fields.join(', ')} ${STORABLE_TEXT_MESSAGE}`, errors)
}

// A number JSON.parse would change (1e400 to null, 1e-400 to 0, a 20-digit integer rounded) is refused
// for every JSON body, naming where it is and the limit it is past (lib/json/exact-numbers.ts).
function refuseInexactNumber(text: string) {
  const inexact = findInexactNumber(text)
  if (!inexact) return
  const field = fieldOf(inexact.path)
  throw new AppError('VALIDATION_FAILED', `invalid body: ${field}: ${inexact.message}`, [{ field, rule: inexact.rule, message: inexact.message }])
}

function parseWith(schema: z.ZodObject | undefined, value: unknown, code: 'BAD_REQUEST' | 'VALIDATION_FAILED', where: string) {
  if (!schema) return undefined
  const parsed = schema.safeParse(value)
  if (parsed.success) return parsed.data
  const errors = fieldErrorsFromZod(parsed.error, value)
  throw new AppError(code, `invalid ${where}: ${errors.map((e) => `${e.field} ${e.message}`).join('; ')}`, errors)
}

/** Query parameters as an object; a key given several times (or declared as an array) becomes an array. */
function queryObject(search: URLSearchParams, schema: z.ZodObject | undefined): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {}
  for (const key of new Set(search.keys())) {
    const values = search.getAll(key)
    const field = schema?.shape[key] as z.ZodType | undefined
    const wantsArray = field !== undefined && unwrap(field)?.type === 'array'
    out[key] = values.length > 1 || wantsArray ? values : values[0]
  }
  return out
}

function unwrap(field: z.ZodType): { type: string } | undefined {
  let def = (field as unknown as { def: { type: string; innerType?: z.ZodType } }).def
  while (def.innerType) def = (def.innerType as unknown as { def: typeof def }).def
  return def
}

async function readBody(request: Request, contract: RouteContract): Promise<unknown> {
  const limit = typeof contract.maxBodyBytes === 'function' ? contract.maxBodyBytes() : (contract.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES)
  const contentType = (request.headers.get('content-type') ?? '').split(';')[0].trim().toLowerCase()
  const text = await readBounded(request, limit)
  if (text === null) throw new AppError('PAYLOAD_TOO_LARGE', `the request body is larger than the limit of ${limit} bytes for this route`)
  if (isTextBody(contract.body)) {
    if (contentType && !contract.body.contentTypes.includes(contentType))
      throw new AppError('UNSUPPORTED_MEDIA_TYPE', `send the body as one of: ${contract.body.contentTypes.join(', ')} (got ${contentType})`)
    return text
  }
  if (contentType && contentType !== 'application/json' && !contentType.endsWith('+json'))
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', `send the body as application/json (got ${contentType})`)
  let json: unknown
  try {
    // An empty body is "no body"; routes whose body is optional accept it.
    json = text.trim() === '' ? undefined : JSON.parse(text)
  } catch (e) {
    throw new AppError('BAD_REQUEST', `the body is not valid JSON: ${(e as Error).message}`, [
      { field: '(body)', rule: 'json-syntax', message: (e as Error).message },
    ])
  }
  refuseUnstorable(json, 'body', contract.safeTextFields)
  refuseInexactNumber(text)
  const parsed = (contract.body as z.ZodType).safeParse(json)
  if (parsed.success) return parsed.data
  const errors = fieldErrorsFromZod(parsed.error, json)
  throw new AppError('VALIDATION_FAILED', `invalid body: ${errors.map((e) => `${e.field} ${e.message}`).join('; ')}`, errors)
}
