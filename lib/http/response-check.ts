// Answers held to their route's contract. Off in production (a serialization and a parse per answer);
// TOOLROOM_CHECK_RESPONSES=1 turns it on, as the integration tests do, so every answer they get is
// parsed against the schema its route declares: the success schema, or the problem schema for
// errors. A mismatch (a wrong type, a missing field, a field the contract does not declare, another
// status) becomes a 500 problem naming it, and is remembered for the test run to fail on.
import 'server-only'
import { parse } from 'yaml'
import type { z } from 'zod'
import { config } from '@/lib/config'
import { isObject } from '@/lib/json/unknown-values'
import type { RouteContract } from './contract'
import { PROBLEM_CONTENT_TYPE } from '@/lib/errors/problem'
import { problemSchema } from './problem-schema'
import { YAML_CONTENT_TYPE } from './yaml-answer'

export const responseChecks = () => config().TOOLROOM_CHECK_RESPONSES

/** Every mismatch this process answered, for test runners to fail on. */
export const responseMismatches: string[] = ((globalThis as { __toolroomResponseMismatches?: string[] }).__toolroomResponseMismatches ??= [])

/** What is wrong with `response` for `contract`, or an empty list. Reads a clone: the answer is left whole. */
export async function mismatchesOf(contract: RouteContract, response: Response): Promise<string[]> {
  const type = (response.headers.get('content-type') ?? '').split(';')[0].trim()
  // A watch never ends, so its body cannot be read here: its tests hold each event to the contract.
  if (type === 'text/event-stream' && contract.etag?.exceptWith && response.status === 200) return []
  const text = await response.clone().text()
  if (response.status >= 400)
    return type === PROBLEM_CONTENT_TYPE
      ? schemaMismatches(contract.problem ?? problemSchema, parseJson(text))
      : [`an error answer of type "${type}", not ${PROBLEM_CONTENT_TYPE}`]
  if (response.status === 304 && contract.etag) return text === '' && response.headers.get('etag') ? [] : ['a 304 with a body or without its ETag']
  const expected = contract.successStatus ?? 200
  if (response.status !== expected) return [`status ${response.status}, where the contract says ${expected}`]
  if (expected === 204 || !contract.response) return text === '' ? [] : ['a body, where the contract declares none']
  if (contract.responseContentType)
    return type === contract.responseContentType
      ? schemaMismatches(contract.response, text)
      : [`content type "${type}", where the contract says ${contract.responseContentType}`]
  // The same value as YAML, for a client that asked for it (`yamlAnswer`); a JSON text is YAML too.
  if (type === YAML_CONTENT_TYPE && contract.yamlAnswer) return schemaMismatches(contract.response, parseYaml(text))
  if (type !== 'application/json') return [`content type "${type}", where the contract says application/json`]
  return schemaMismatches(contract.response, parseJson(text))
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return Symbol('not JSON')
  }
}

function parseYaml(text: string): unknown {
  try {
    return parse(text)
  } catch {
    return Symbol('not YAML')
  }
}

function schemaMismatches(schema: z.ZodType, body: unknown): string[] {
  if (typeof body === 'symbol') return [`a body that is ${body.description}`]
  const parsed = schema.safeParse(body)
  if (!parsed.success) return parsed.error.issues.map((i) => `${pathText(i.path)}: ${i.message}`)
  return undeclared(body, parsed.data, '').map((path) => `${path}: a field the contract does not declare`)
}

/** Keys the answer holds that parsing dropped: fields the schema does not know. */
function undeclared(given: unknown, kept: unknown, path: string): string[] {
  if (Array.isArray(given) && Array.isArray(kept)) return given.flatMap((item, i) => undeclared(item, kept[i], `${path}[${i}]`))
  if (!isObject(given) || !isObject(kept)) return []
  return Object.keys(given).flatMap((key) => (key in kept ? undeclared(given[key], kept[key], path ? `${path}.${key}` : key) : [path ? `${path}.${key}` : key]))
}

const pathText = (path: PropertyKey[]) =>
  path.length
    ? path
        .map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`))
        .join('')
        .replace(/^\./, '')
    : '(answer)'
