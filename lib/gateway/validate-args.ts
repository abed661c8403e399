// Arguments checked against the tool's inputSchema (Ajv, compiled once per schema text), with every
// violation named by its path, for the -32602 answer.
import type { ValidateFunction } from 'ajv'
import { isObject } from '@/lib/json/unknown-values'
import { schemaLimitProblems } from '@/lib/manifests/json-schema'
import { createUntrustedAjv } from '@/lib/manifests/untrusted-ajv'

// Patterns run in linear time: a schema stored before that rule that RE2 cannot run fails to
// compile and its calls are refused, rather than validated with a backtracking engine. Likewise a
// schema stored before the size and nesting limits (docs/design/discovery.md#limits) is refused by
// name rather than compiled: Ajv recurses through it and would overflow the stack.
const ajv = createUntrustedAjv()

const compiled = new Map<string, ValidateFunction | Error>()
const KEPT = 5000
export const MAX_ARGUMENT_DEPTH = 64

export interface Violation {
  path: string
  rule: string
  message: string
}

export function validateArguments(schema: unknown, args: unknown): Violation[] {
  if (typeof args !== 'object' || args === null || Array.isArray(args)) return [{ path: '(root)', rule: 'type', message: 'arguments must be an object' }]
  if (depthOver(args, MAX_ARGUMENT_DEPTH)) return [{ path: '(root)', rule: 'depth', message: `arguments nest deeper than ${MAX_ARGUMENT_DEPTH} levels` }]
  const validate = validatorFor(schema)
  if (validate instanceof Error) return [{ path: '(schema)', rule: 'schema', message: `the tool's inputSchema cannot be used: ${validate.message}` }]
  try {
    if (validate(args)) return []
  } catch (e) {
    // A schema whose validation recurses without end (a `$ref` loop the limits did not recognise).
    return [{ path: '(schema)', rule: 'schema', message: `the tool's inputSchema cannot be used: validating against it failed (${(e as Error).message})` }]
  }
  return (validate.errors ?? []).slice(0, 50).map((e) => {
    const missing = e.keyword === 'required' ? `/${(e.params as { missingProperty: string }).missingProperty}` : ''
    const extra = e.keyword === 'additionalProperties' ? `/${(e.params as { additionalProperty: string }).additionalProperty}` : ''
    return { path: `${e.instancePath}${missing}${extra}` || '(root)', rule: e.keyword, message: e.message ?? 'is invalid' }
  })
}

// Effective entries keep their schema objects for as long as the registry does not change: look
// those up by identity, and fall back to the text for schemas seen under another object.
const byObject = new WeakMap<object, ValidateFunction | Error>()

function validatorFor(schema: unknown): ValidateFunction | Error {
  if (typeof schema === 'object' && schema !== null) {
    const known = byObject.get(schema)
    if (known) return known
    const found = validatorByText(schema)
    byObject.set(schema, found)
    return found
  }
  return validatorByText(schema)
}

function validatorByText(schema: unknown): ValidateFunction | Error {
  let key: string
  try {
    key = JSON.stringify(schema ?? {})
  } catch {
    return new Error(schemaLimitProblems(schema, null).join('; ') || 'cannot be read as JSON')
  }
  let hit = compiled.get(key)
  if (!hit) {
    const beyondLimits = isObject(schema) ? schemaLimitProblems(schema, key) : []
    if (beyondLimits.length > 0) hit = new Error(beyondLimits.join('; '))
    else
      try {
        hit = ajv.compile({ ...(schema as object), $id: undefined })
      } catch (e) {
        hit = e as Error
      }
    if (compiled.size >= KEPT) compiled.delete(compiled.keys().next().value!)
    compiled.set(key, hit)
  }
  return hit
}

function depthOver(value: unknown, limit: number, depth = 0): boolean {
  if (depth > limit) return true
  if (typeof value !== 'object' || value === null) return false
  for (const child of Object.values(value)) if (depthOver(child, limit, depth + 1)) return true
  return false
}
