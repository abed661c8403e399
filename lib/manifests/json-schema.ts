// JSON Schema documents of tools (inputSchema, outputSchema) must be valid schemas within limits,
// whoever wrote them: an operator's manifest, an image's tools manifest, an MCP server's tools/list
// (docs/design/discovery.md#limits). Checked against the draft they declare (2020-12 unless `$schema`
// says draft-07) and compiled, so broken `$ref`s are caught at registration rather than at the first
// call, with patterns RE2 can run (untrusted-ajv.ts), so none can freeze the gateway, and within the
// size and nesting limits below, so none can overflow the stack of Ajv (which compiles and validates
// recursively) or cost seconds to compile.
import { isObject } from '@/lib/json/unknown-values'
import { createUntrustedAjv, nonLinearPatternProblems } from './untrusted-ajv'

const ajv = createUntrustedAjv()

/** Deepest nesting of a schema, counted through local `$ref`s as well (each hop a level). */
export const MAX_SCHEMA_DEPTH = 32
/** Largest schema, as JSON text: compiling costs about a millisecond per dozen properties. */
export const MAX_SCHEMA_BYTES = 128 * 1024

// Discovery sees the same schemas again and again (every run of every server re-lists them), and
// compiling is the costly part: verdicts are kept by the schema's text.
const VERDICTS_KEPT = 5000
const verdicts = new Map<string, string[]>()

/** Returns problems with a JSON Schema, empty when it is usable as a tool schema. */
export function checkToolJsonSchema(schema: unknown, options: { requireObjectRoot: boolean }): string[] {
  const text = jsonTextOf(schema)
  if (text === null) return [tooDeep()]
  const key = `${options.requireObjectRoot ? 1 : 0}${text}`
  const known = verdicts.get(key)
  if (known) return known
  const verdict = judgeToolJsonSchema(schema, text, options)
  if (verdicts.size >= VERDICTS_KEPT) verdicts.delete(verdicts.keys().next().value!)
  verdicts.set(key, verdict)
  return verdict
}

function judgeToolJsonSchema(schema: unknown, text: string, { requireObjectRoot }: { requireObjectRoot: boolean }): string[] {
  const limits = schemaLimitProblems(schema, text)
  if (limits.length > 0) return limits
  const root = schema as Record<string, unknown>
  if (requireObjectRoot && root.type !== undefined && root.type !== 'object') {
    return [`root "type" must be "object" (MCP tool arguments are an object), not ${JSON.stringify(root.type)}`]
  }
  const nonLinear = nonLinearPatternProblems(root)
  if (nonLinear.length > 0) return nonLinear
  let valid: boolean
  try {
    valid = ajv.validateSchema(root) as boolean
  } catch {
    // Ajv throws for a `$schema` it has no meta-schema of: the gateway could not compile it either.
    return [`"$schema" ${JSON.stringify(String(root.$schema).slice(0, 200))} is not a draft this gateway validates with (2020-12, or draft-07)`]
  }
  if (!valid) {
    return (ajv.errors ?? []).map((e) => `${e.instancePath || '(root)'} ${e.message}`.trim())
  }
  const candidate = { ...root, $id: undefined }
  try {
    ajv.compile(candidate)
  } catch (e) {
    return [(e as Error).message]
  } finally {
    // Ajv caches every compiled schema by object identity; these are one-off checks.
    ajv.removeSchema(candidate)
  }
  return []
}

/**
 * The limits a schema keeps before Ajv may look at it: an object, at most MAX_SCHEMA_BYTES as JSON,
 * nesting at most MAX_SCHEMA_DEPTH levels (through local `$ref`s too), and no `$ref` cycle that never
 * descends into the value (Ajv recurses on it until the stack overflows). Cheap and safe on any value:
 * the gateway runs it on stored schemas before compiling them. `text` is the schema's JSON when known.
 */
export function schemaLimitProblems(schema: unknown, text?: string | null): string[] {
  if (!isObject(schema)) return ['must be a JSON Schema object']
  const json = text === undefined ? jsonTextOf(schema) : text
  if (json === null) return [tooDeep()]
  if (json.length > MAX_SCHEMA_BYTES) return [`is ${json.length} bytes as JSON, over the limit of ${MAX_SCHEMA_BYTES} bytes (${MAX_SCHEMA_BYTES / 1024} KiB)`]
  const refs = new RefResolver(schema)
  if (depthThroughRefs(schema, refs) > MAX_SCHEMA_DEPTH) return [tooDeep()]
  const cycle = refCycle(schema, refs)
  if (cycle) return [`$ref cycle that never descends into the value (${cycle.join(' → ')}): validating against it would not end`]
  return []
}

const tooDeep = () => `nests deeper than the limit of ${MAX_SCHEMA_DEPTH} levels (each $ref followed counts as one)`

function jsonTextOf(value: unknown): string | null {
  try {
    return JSON.stringify(value) ?? 'null'
  } catch {
    // RangeError: nested beyond what JSON.stringify's recursion takes
    return null
  }
}

/** Local references of one schema: JSON Pointers (`#/$defs/a`), anchors (`#name`) and exact `$id`s. */
class RefResolver {
  private readonly named = new Map<string, object>()

  constructor(private readonly root: Record<string, unknown>) {
    const visit = (value: unknown, depth: number) => {
      if (depth > MAX_SCHEMA_DEPTH + 1 || typeof value !== 'object' || value === null) return
      if (!Array.isArray(value)) {
        const node = value as Record<string, unknown>
        for (const key of ['$anchor', '$dynamicAnchor'] as const) if (typeof node[key] === 'string') this.named.set(`#${node[key]}`, node)
        if (typeof node.$id === 'string' && node !== root) this.named.set(node.$id, node)
      }
      for (const child of Object.values(value)) visit(child, depth + 1)
    }
    visit(root, 0)
  }

  /** The schema a `$ref` (or `$dynamicRef`) names inside this document, or null (remote, or unknown: left to Ajv). */
  resolve(ref: string): object | null {
    const named = this.named.get(ref)
    if (named) return named
    if (ref === '#') return this.root
    if (!ref.startsWith('#/')) return null
    let node: unknown = this.root
    for (const raw of ref.slice(2).split('/')) {
      let segment: string
      try {
        segment = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~')
      } catch {
        return null
      }
      if (typeof node !== 'object' || node === null || !Object.hasOwn(node, segment)) return null
      node = (node as Record<string, unknown>)[segment]
    }
    return typeof node === 'object' && node !== null ? node : null
  }
}

const refOf = (node: Record<string, unknown>): string | null =>
  typeof node.$ref === 'string' ? node.$ref : typeof node.$dynamicRef === 'string' ? node.$dynamicRef : null

/**
 * How deeply a schema nests when its local `$ref`s are followed (each hop one level). A reference back
 * to a schema being measured is recursion through the value and adds nothing; the walk stops as soon
 * as the limit is passed, and remembers each schema's height, so it is linear in the schema.
 */
function depthThroughRefs(root: object, refs: RefResolver): number {
  const heights = new Map<object, number>()
  const open = new Set<object>()
  const over = MAX_SCHEMA_DEPTH + 1
  const height = (node: object, depth: number): number => {
    if (depth >= over) return over
    const known = heights.get(node)
    if (known !== undefined) return known
    if (open.has(node)) return 0
    open.add(node)
    let max = 0
    for (const child of Object.values(node)) {
      if (typeof child !== 'object' || child === null) continue
      max = Math.max(max, 1 + height(child, depth + 1))
      if (depth + max >= over) break
    }
    const ref = Array.isArray(node) ? null : refOf(node as Record<string, unknown>)
    const target = ref === null ? null : refs.resolve(ref)
    if (target && depth + max < over) max = Math.max(max, 1 + height(target, depth + 1))
    open.delete(node)
    heights.set(node, max)
    return max
  }
  return height(root, 0)
}

// Keywords that apply their schemas to the same value: a `$ref` cycle through only these never ends.
const IN_PLACE_LISTS = ['allOf', 'anyOf', 'oneOf']
const IN_PLACE_ONE = ['not', 'if', 'then', 'else']
const IN_PLACE_MAPS = ['dependentSchemas', 'dependencies']

/** A cycle of `$ref`s (and in-place applicators) that comes back to a schema without descending into the value: the steps taken. */
function refCycle(root: object, refs: RefResolver): string[] | null {
  const done = new Set<object>()
  const path: object[] = []
  const steps: string[] = []
  const visit = (node: unknown, step: string): string[] | null => {
    if (!isObject(node) || done.has(node)) return null
    const at = path.indexOf(node)
    if (at !== -1) return [...steps.slice(at + 1), step]
    // Each step is a level of the nesting limit, which has held already: chains are short.
    if (path.length > MAX_SCHEMA_DEPTH) return null
    path.push(node)
    steps.push(step)
    const next: Array<[unknown, string]> = []
    const ref = refOf(node)
    if (ref !== null) next.push([refs.resolve(ref), `$ref ${ref.slice(0, 100)}`])
    for (const k of IN_PLACE_LISTS) if (Array.isArray(node[k])) for (const s of node[k] as unknown[]) next.push([s, k])
    for (const k of IN_PLACE_ONE) next.push([node[k], k])
    for (const k of IN_PLACE_MAPS) if (isObject(node[k])) for (const s of Object.values(node[k])) next.push([s, k])
    let found: string[] | null = null
    for (const [child, label] of next) if ((found = visit(child, label))) break
    path.pop()
    steps.pop()
    done.add(node)
    return found
  }
  // Every schema the value may meet first: the root and every schema inside it (anything may refer to
  // any of them); values of const, enum, default and examples are data, not schemas.
  const starts: object[] = []
  const collect = (value: unknown, depth: number, inNameMap = false) => {
    if (depth > MAX_SCHEMA_DEPTH || typeof value !== 'object' || value === null) return
    if (isObject(value) && !inNameMap) starts.push(value)
    for (const [key, child] of Object.entries(value))
      if (inNameMap || Array.isArray(value) || !DATA_KEYWORDS.has(key)) collect(child, depth + 1, !inNameMap && NAME_MAPS.has(key))
  }
  collect(root, 0)
  for (const start of starts) {
    const found = visit(start, '(start)')
    if (found) return found
  }
  return null
}

const DATA_KEYWORDS = new Set(['const', 'enum', 'default', 'examples'])
// Keywords whose object maps names to schemas: a property called `default` is a schema there.
const NAME_MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'])
