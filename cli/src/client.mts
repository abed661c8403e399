// The REST API as the CLI reaches it: openapi-fetch over the types generated from the OpenAPI document
// (generated/openapi.mts, `npm run openapi:client`), with the token and the problem+json answers made
// into ApiErrors.
import { createRequire } from 'node:module'
import createClient from 'openapi-fetch'
import type { Connection } from './config.mjs'
import { ApiError } from './errors.mjs'
import type { components, paths } from './generated/openapi.mjs'

export type Api = ReturnType<typeof createClient<paths>>

export const VERSION: string = (createRequire(import.meta.url)('../../package.json') as { version: string }).version

export function apiClient(conn: Connection): Api {
  return createClient<paths>({
    baseUrl: conn.server,
    headers: { 'user-agent': `toolroom-cli/${VERSION}`, ...(conn.token ? { authorization: `Bearer ${conn.token}` } : {}) },
  })
}

interface Answer<T> {
  data?: T
  error?: unknown
  response: Response
}

/** The answer's data, or an ApiError with the problem the API named (or why it could not be reached). */
export async function unwrap<T>(server: string, request: Promise<Answer<T>>): Promise<T> {
  let answer: Answer<T>
  try {
    answer = await request
  } catch (e) {
    const cause = (e as { cause?: { code?: string; message?: string } }).cause
    throw new ApiError(`cannot reach ${server}: ${cause?.code ?? cause?.message ?? (e as Error).message}`, null, 'Unreachable')
  }
  if (answer.response.ok) return answer.data as T
  throw problemError(answer.response, answer.error)
}

function problemError(response: Response, body: unknown): ApiError {
  const problem = (typeof body === 'object' && body !== null ? body : {}) as Partial<components['schemas']['Problem']>
  const title = problem.title ?? response.statusText ?? 'Error'
  const detail = problem.detail ?? (typeof body === 'string' && body.length < 500 ? body : `the server answered ${response.status}`)
  const hint = response.status === 401 ? ' (set TOOLROOM_TOKEN, pass --token, or use a context with a token)' : ''
  return new ApiError(`${detail}${hint}`, response.status, title, Array.isArray(problem.errors) ? problem.errors : [])
}
