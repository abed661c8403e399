// A Policy's conditions against the input schemas of the tools it selects, at apply: a path into
// `args` no selected tool declares (`args.amout` when the schema has `amount`), or a comparison with
// a constant of a type the schema rules out, is an apply error (docs/design/policy.md#checks). Pure.
import type { PolicySpec } from '@/lib/manifests/specs/policy'
import { globToRegExp } from './evaluate-policies'
import { type ArgumentPath, argumentPaths } from './policy-condition'

export interface PolicyArgumentProblem {
  field: string
  rule: 'cel-unknown-argument' | 'cel-type'
  message: string
}

export type SchemaLookup = { kind: 'declared'; schema: Record<string, unknown> } | { kind: 'open' } | { kind: 'absent'; known: string[] }

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

/**
 * Where a path leads in a schema. A schema whose shape this cannot follow (combinators, `$ref`,
 * pattern or additional properties, no `properties`) is open: anything may be there, nothing is refused.
 */
export function lookupInputSchema(schema: unknown, path: string[]): SchemaLookup {
  let node: unknown = schema
  for (const segment of path) {
    if (!isObject(node)) return { kind: 'open' }
    const current = node
    if (['$ref', 'allOf', 'anyOf', 'oneOf', 'patternProperties', 'if'].some((k) => k in current)) return { kind: 'open' }
    const properties = current.properties
    if (!isObject(properties)) return { kind: 'open' }
    if (Object.hasOwn(properties, segment)) {
      node = properties[segment]
      continue
    }
    if (current.additionalProperties !== undefined && current.additionalProperties !== false) return { kind: 'open' }
    return { kind: 'absent', known: Object.keys(properties) }
  }
  return isObject(node) ? { kind: 'declared', schema: node } : { kind: 'open' }
}

function typesOf(schema: Record<string, unknown>): Set<string> | null {
  const declared = typeof schema.type === 'string' ? [schema.type] : Array.isArray(schema.type) ? schema.type.filter((t) => typeof t === 'string') : null
  if (!declared) return null
  return new Set(declared.map((t) => (t === 'integer' ? 'number' : t === 'boolean' ? 'bool' : t)))
}

export function policyArgumentProblems(spec: PolicySpec, inputSchemas: ReadonlyMap<string, unknown>): PolicyArgumentProblem[] {
  const globs = spec.selector.tools.map(globToRegExp)
  const selected = [...inputSchemas.entries()].filter(([id]) => globs.some((g) => g.test(id))).sort(([a], [b]) => (a < b ? -1 : 1))
  // Tools the registry does not hold yet (or discovered ones) are not known here: nothing to check against.
  if (selected.length === 0) return []
  const problems: PolicyArgumentProblem[] = []
  spec.rules.forEach((rule, i) => {
    const field = `spec.rules[${i}].when`
    for (const use of argumentPaths(rule.when)) {
      const found = selected.map(([id, schema]) => ({ id, at: lookupInputSchema(schema, use.path) }))
      const reachable = found.filter((f) => f.at.kind !== 'absent')
      const name = `args.${use.path.join('.')}`
      if (reachable.length === 0) {
        problems.push({ field, rule: 'cel-unknown-argument', message: `${where(use)}: ${name} is not an argument of ${describe(found)}` })
        continue
      }
      const wrongType = comparedTypeProblem(use, reachable)
      if (wrongType) problems.push({ field, rule: 'cel-type', message: `${where(use)}: ${name} ${wrongType}` })
    }
  })
  return problems
}

function comparedTypeProblem(use: ArgumentPath, reachable: Array<{ id: string; at: SchemaLookup }>): string | null {
  if (!use.comparedWith || use.comparedWith === 'null') return null
  const typed = reachable.flatMap((f) => (f.at.kind === 'declared' ? [{ id: f.id, types: typesOf(f.at.schema) }] : [{ id: f.id, types: null }]))
  if (typed.some((t) => t.types === null || t.types.has(use.comparedWith!))) return null
  const first = typed[0]
  return `is ${[...first.types!].join(' or ')} in ${first.id}'s input schema, but is compared with a ${use.comparedWith}`
}

function describe(found: Array<{ id: string; at: SchemaLookup }>): string {
  const shown = found.slice(0, 3).map((f) => `${f.id} (it has: ${f.at.kind === 'absent' ? f.at.known.join(', ') || 'none' : '…'})`)
  return `${found.length === 1 ? 'the selected tool' : 'any selected tool'}: ${shown.join('; ')}${found.length > 3 ? `; and ${found.length - 3} more` : ''}`
}

const where = (use: ArgumentPath) => `at ${use.line}:${use.column}`
