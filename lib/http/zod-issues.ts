// Turns zod issues into FieldErrors whose `rule` names the broken rule, so a client (or a person
// reading the Apply page) sees "spec.sideEffects.level: enum" rather than a generic failure.
import type { core } from 'zod'
import type { FieldError } from '@/lib/errors/app-error'
import { CANONICAL_TOOL_ID } from '@/lib/tools/naming'

const RULE_BY_PATTERN = new Map<string, string>([[String(CANONICAL_TOOL_ID), 'canonical-id']])

export function fieldPath(path: readonly PropertyKey[]): string {
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? String(p) : `.${String(p)}`)).join('')
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let v: unknown = root
  for (const p of path) {
    if (typeof v !== 'object' || v === null) return undefined
    v = (v as Record<PropertyKey, unknown>)[p]
  }
  return v
}

function ruleOf(issue: core.$ZodIssue, input: unknown): string {
  switch (issue.code) {
    case 'unrecognized_keys':
      return 'unknown-field'
    case 'invalid_type':
      return valueAt(input, issue.path) === undefined ? 'required' : 'type'
    case 'invalid_value':
      return 'enum'
    case 'invalid_format':
      return (issue.format === 'regex' && 'pattern' in issue && RULE_BY_PATTERN.get(String(issue.pattern))) || 'format'
    case 'too_big':
      return issue.origin === 'string' || issue.origin === 'array' ? 'max-length' : 'max'
    case 'too_small':
      return issue.origin === 'string' || issue.origin === 'array' ? 'min-length' : 'min'
    case 'invalid_key':
      // A record key broke its own schema (a toggle key that is not a canonical id): name that rule.
      return issue.issues[0] ? ruleOf(issue.issues[0] as core.$ZodIssue, undefined) : 'key'
    case 'custom':
      return (issue.params as { rule?: string } | undefined)?.rule ?? 'invalid'
    default:
      return 'invalid'
  }
}

/**
 * @param input the value that was parsed, used to tell a missing field from a wrong one
 * @param prefix path of `input` inside the request body or document (e.g. ['spec'])
 */
export function fieldErrorsFromZod(error: core.$ZodError, input: unknown, prefix: readonly PropertyKey[] = []): FieldError[] {
  const out: FieldError[] = []
  for (const issue of error.issues) {
    const path = [...prefix, ...issue.path]
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) out.push({ field: fieldPath([...path, key]), rule: 'unknown-field', message: `unknown field "${key}"` })
      continue
    }
    const rule = ruleOf(issue, input)
    const field = fieldPath(path) || '(body)'
    let message = issue.code === 'invalid_key' && issue.issues[0] ? `key ${issue.issues[0].message}` : issue.message
    if (rule === 'required') message = 'is required'
    else if (rule === 'enum' && 'values' in issue) message = `must be one of: ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`
    out.push({ field, rule, message })
  }
  return out
}
