// JSON Schemas come from operators and from upstream servers, and the gateway validates every call
// against them in the process that fronts the public port: a backtracking `pattern` such as
// `^(a+)+$` would freeze that process for minutes. Every Ajv instance that compiles such schemas is
// made here, with patterns run by RE2 (re2js: linear time in the input) and format checks that are
// linear too. Patterns RE2 cannot express (backreferences, lookaround) are refused, never run with
// the backtracking engine; `nonLinearPatterns` names them for apply and discovery.
import Ajv2020 from 'ajv/dist/2020'
import type { Format } from 'ajv'
import type { RegExpEngine } from 'ajv/dist/types'
import draft7MetaSchema from 'ajv/dist/refs/json-schema-draft-07.json'
import addFormats from 'ajv-formats'
import { fullFormats } from 'ajv-formats/dist/formats'
import { RE2JS } from 're2js'
import { isObject } from '@/lib/json/unknown-values'

/** Compiles an ECMA-262 pattern (JSON Schema's dialect) for RE2; throws when RE2 cannot express it. */
function compileLinear(pattern: string, flags = 0): RE2JS {
  return RE2JS.compile(RE2JS.translateRegExp(pattern), flags)
}

/** Ajv's `code.regExp`: `pattern` and `patternProperties` searched with RE2. */
const linearRegExp: RegExpEngine = Object.assign(
  (pattern: string, flags: string) => {
    let re: RE2JS
    try {
      re = compileLinear(pattern)
    } catch (e) {
      throw new Error(`pattern ${JSON.stringify(pattern)} cannot run in linear time (RE2): ${(e as Error).message}`)
    }
    // Ajv keys compiled patterns by toString(): it must tell patterns apart.
    return { test: (s: string) => re.test(s), toString: () => `/${pattern}/${flags}` }
  },
  { code: 'linearRegExp' },
)

// Formats whose ajv-formats regex RE2 cannot compile: `url` backtracks for minutes on
// "http://" + ':'.repeat(2e5) (measured), so it is checked with the WHATWG URL parser instead;
// `hostname` (lookahead bounded to 253 characters) and `duration` (a one-character lookahead) stay
// linear as written. Function formats (date, time, date-time, uri's fragment check, byte, regex) use
// anchored, fixed-width expressions, and `regex` only compiles (never runs) the text.
const URL_SCHEMES = /^(?:https?|ftp):\/\//i
const linearFormats: Record<string, Format> = {
  url: (s: string) => URL_SCHEMES.test(s) && URL.canParse(s),
}
for (const [name, format] of Object.entries(fullFormats)) {
  if (name in linearFormats || !(format instanceof RegExp)) continue
  try {
    const re = compileLinear(format.source, format.flags.includes('i') ? RE2JS.CASE_INSENSITIVE : 0)
    linearFormats[name] = (s: string) => re.test(s)
  } catch {
    // kept as written (see above)
  }
}

/** An Ajv for schemas nobody here wrote: 2020-12 and draft-07, formats, linear-time patterns. */
export function createUntrustedAjv(): Ajv2020 {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true, code: { regExp: linearRegExp } })
  ajv.addMetaSchema(draft7MetaSchema)
  addFormats(ajv)
  for (const [name, format] of Object.entries(linearFormats)) ajv.addFormat(name, format)
  return ajv
}

const DATA_KEYWORDS = new Set(['const', 'enum', 'default', 'examples'])
// Keywords whose object maps names to schemas: a property called `default` is a schema there.
const NAME_MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'])

// Discovery sees the same schemas on every run: verdicts are kept by pattern.
const verdicts = new Map<string, string | null>()
function whyNotLinear(pattern: string): string | null {
  let verdict = verdicts.get(pattern)
  if (verdict === undefined) {
    try {
      compileLinear(pattern)
      verdict = null
    } catch (e) {
      verdict = (e as Error).message
    }
    if (verdicts.size >= 5000) verdicts.delete(verdicts.keys().next().value!)
    verdicts.set(pattern, verdict)
  }
  return verdict
}

/**
 * Every `pattern` and `patternProperties` key in a schema that RE2 cannot run, by JSON Pointer
 * (`/properties/code/pattern`), with the reason. Values of const/enum/default/examples are data, not
 * schemas, and are not looked into.
 */
export function nonLinearPatterns(schema: unknown): Array<{ path: string; pattern: string; reason: string }> {
  const found: Array<{ path: string; pattern: string; reason: string }> = []
  const check = (path: string, pattern: string) => {
    const reason = whyNotLinear(pattern)
    if (reason !== null) found.push({ path, pattern, reason })
  }
  const walk = (value: unknown, path: string, depth: number, inNameMap = false) => {
    if (depth > 64 || typeof value !== 'object' || value === null) return
    if (Array.isArray(value)) return value.forEach((item, i) => walk(item, `${path}/${i}`, depth + 1))
    for (const [key, child] of Object.entries(value)) {
      const childPath = `${path}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`
      if (inNameMap) {
        walk(child, childPath, depth + 1)
        continue
      }
      if (DATA_KEYWORDS.has(key)) continue
      if (key === 'pattern' && typeof child === 'string') check(childPath, child)
      else if (key === 'patternProperties' && isObject(child))
        for (const pattern of Object.keys(child)) check(`${childPath}/${pattern.replace(/~/g, '~0').replace(/\//g, '~1')}`, pattern)
      walk(child, childPath, depth + 1, NAME_MAPS.has(key))
    }
  }
  walk(schema, '', 0)
  return found
}

/** The problems `nonLinearPatterns` finds, as sentences. */
export function nonLinearPatternProblems(schema: unknown): string[] {
  return nonLinearPatterns(schema).map(
    (p) =>
      `${p.path || '(root)'}: pattern ${JSON.stringify(p.pattern.slice(0, 200))} cannot run in linear time (RE2 has no backreferences or lookaround): ${p.reason}`,
  )
}
