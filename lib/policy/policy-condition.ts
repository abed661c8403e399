// A Policy rule's condition: a CEL expression (docs/design/policy.md#conditions), parsed, bounded and
// planned here and nowhere else. Evaluation uses @bufbuild/cel, whose `matches` runs on
// @bufbuild/re2 (linear time whatever the pattern), behind a fast path for the common subset
// (compile-fast-condition.ts) that defers to it on anything it is not sure of. Pure.
import { type CelInput, type CelResult, celEnv, celList, celMap, parse, plan } from '@bufbuild/cel'
import { reflect } from '@bufbuild/protobuf/reflect'
import { TimestampSchema, timestampFromDate } from '@bufbuild/protobuf/wkt'
import { strings } from '@bufbuild/cel/ext'
import type { Expr } from '@bufbuild/cel-spec/cel/expr/syntax_pb.js'
import { type FastConditionSet, fastConditionSet, type PlainBindings } from './compile-fast-condition'

export const CONDITION_VARIABLES = ['args', 'agent', 'tool', 'person', 'now'] as const

/** The cost limit, checked before a condition is accepted (docs/design/policy.md#cost). */
export const MAX_CONDITION_LENGTH = 2000
export const MAX_CONDITION_NODES = 300
/** A macro (`all`, `exists`, `map`, `filter`) inside another multiplies its cost by the size of a list an agent controls. */
export const MAX_MACRO_NESTING = 1

// `replace` and `format` can build strings far larger than their inputs; the rest of the strings
// extension is linear in what it reads.
const UNBOUNDED_FUNCTIONS = new Set(['replace', 'format'])
const env = celEnv({ funcs: strings.filter((f) => !UNBOUNDED_FUNCTIONS.has(f.name)) })
// Operators the planner evaluates itself rather than through the function table.
const PLANNER_OPERATORS = new Set(['_&&_', '_||_', '_?_:_', '_[_]', '_[?_]', '_?._', '@not_strictly_false', '__not_strictly_false__'])

export interface ConditionProblem {
  rule: 'cel-syntax' | 'cel-unknown-variable' | 'cel-unknown-function' | 'cel-cost'
  message: string
}

/** A use of the arguments: `args.customer.id` is ["customer", "id"], with the constant it is compared with, if any. */
export interface ArgumentPath {
  path: string[]
  /** Where in the expression it starts: 1-based line and column. */
  line: number
  column: number
  comparedWith?: 'number' | 'string' | 'bool' | 'null'
}

type Parsed = ReturnType<typeof parse>

function tryParse(when: string): { parsed: Parsed } | { problem: ConditionProblem } {
  try {
    return { parsed: parse(when) }
  } catch (e) {
    const raw = e instanceof Error ? e.message : String(e)
    return { problem: { rule: 'cel-syntax', message: `is not valid CEL: ${raw.replace(/^<input>:/, 'at ')}` } }
  }
}

/** Everything wrong with a condition that needs no tool schema to find: syntax, names, cost. */
export function conditionProblems(when: string): ConditionProblem[] {
  if (when.length > MAX_CONDITION_LENGTH) return [{ rule: 'cel-cost', message: `is longer than ${MAX_CONDITION_LENGTH} characters` }]
  const read = tryParse(when)
  if ('problem' in read) return [read.problem]
  const problems: ConditionProblem[] = []
  const where = locator(when, read.parsed)
  let nodes = 0
  let deepest = 0
  const visit = (expr: Expr | undefined, bound: ReadonlySet<string>, nesting: number) => {
    if (!expr) return
    nodes++
    deepest = Math.max(deepest, nesting)
    const kind = expr.exprKind
    switch (kind.case) {
      case 'identExpr':
        if (!bound.has(kind.value.name) && !(CONDITION_VARIABLES as readonly string[]).includes(kind.value.name))
          problems.push({
            rule: 'cel-unknown-variable',
            message: `${where(expr)}: unknown name "${kind.value.name}"; a condition can use ${CONDITION_VARIABLES.join(', ')}`,
          })
        return
      case 'selectExpr':
        return visit(kind.value.operand, bound, nesting)
      case 'callExpr':
        if (!PLANNER_OPERATORS.has(kind.value.function) && !env.funcs.find(kind.value.function))
          problems.push({ rule: 'cel-unknown-function', message: `${where(expr)}: unknown function "${kind.value.function}"` })
        visit(kind.value.target, bound, nesting)
        for (const arg of kind.value.args) visit(arg, bound, nesting)
        return
      case 'listExpr':
        for (const element of kind.value.elements) visit(element, bound, nesting)
        return
      case 'structExpr':
        for (const entry of kind.value.entries) {
          if (entry.keyKind.case === 'mapKey') visit(entry.keyKind.value, bound, nesting)
          visit(entry.value, bound, nesting)
        }
        return
      case 'comprehensionExpr': {
        const c = kind.value
        visit(c.iterRange, bound, nesting)
        visit(c.accuInit, bound, nesting)
        const inner = new Set([...bound, c.iterVar, c.iterVar2, c.accuVar].filter(Boolean))
        for (const part of [c.loopCondition, c.loopStep, c.result]) visit(part, inner, nesting + 1)
        return
      }
      default:
        return
    }
  }
  visit(read.parsed.expr, new Set(), 0)
  if (nodes > MAX_CONDITION_NODES) problems.push({ rule: 'cel-cost', message: `has ${nodes} terms; at most ${MAX_CONDITION_NODES} are allowed` })
  if (deepest > MAX_MACRO_NESTING)
    problems.push({ rule: 'cel-cost', message: `nests ${deepest} list macros (all, exists, map, filter); at most ${MAX_MACRO_NESTING} is allowed` })
  return problems
}

const COMPARISONS = new Set(['_==_', '_!=_', '_<_', '_<=_', '_>_', '_>=_'])

/** Every path into `args` the condition reads, for checking against the selected tools' input schemas. */
export function argumentPaths(when: string): ArgumentPath[] {
  const read = tryParse(when)
  if ('problem' in read) return []
  const at = positionOf(when, read.parsed)
  // A path is placed where it starts: at `args`, not at the last `.field`.
  const where = (expr: Expr | undefined): { line: number; column: number } => {
    let root = expr!
    while (root.exprKind.case === 'selectExpr' && root.exprKind.value.operand) root = root.exprKind.value.operand
    return at(root)
  }
  const out: ArgumentPath[] = []
  const pathOf = (expr: Expr | undefined): string[] | null => {
    if (!expr) return null
    const kind = expr.exprKind
    if (kind.case === 'identExpr') return kind.value.name === 'args' ? [] : null
    if (kind.case === 'selectExpr') {
      const base = pathOf(kind.value.operand)
      return base === null ? null : [...base, kind.value.field]
    }
    return null
  }
  const constantType = (expr: Expr | undefined): ArgumentPath['comparedWith'] => {
    if (expr?.exprKind.case !== 'constExpr') return undefined
    const c = expr.exprKind.value.constantKind.case
    if (c === 'int64Value' || c === 'uint64Value' || c === 'doubleValue') return 'number'
    if (c === 'stringValue') return 'string'
    if (c === 'boolValue') return 'bool'
    if (c === 'nullValue') return 'null'
    return undefined
  }
  const visit = (expr: Expr | undefined, shadowed: boolean) => {
    if (!expr) return
    const kind = expr.exprKind
    const path = shadowed ? null : pathOf(expr)
    if (path && path.length > 0) {
      out.push({ path, ...where(expr) })
      return
    }
    switch (kind.case) {
      case 'selectExpr':
        return visit(kind.value.operand, shadowed)
      case 'callExpr': {
        const [left, right] = kind.value.args
        const leftPath = shadowed ? null : pathOf(left)
        const rightPath = shadowed ? null : pathOf(right)
        if (COMPARISONS.has(kind.value.function) && kind.value.args.length === 2 && (leftPath?.length || rightPath?.length)) {
          if (leftPath?.length) out.push({ path: leftPath, ...where(left), comparedWith: constantType(right) })
          else visit(left, shadowed)
          if (rightPath?.length) out.push({ path: rightPath, ...where(right), comparedWith: constantType(left) })
          else visit(right, shadowed)
          return
        }
        visit(kind.value.target, shadowed)
        for (const arg of kind.value.args) visit(arg, shadowed)
        return
      }
      case 'listExpr':
        for (const element of kind.value.elements) visit(element, shadowed)
        return
      case 'structExpr':
        for (const entry of kind.value.entries) visit(entry.value, shadowed)
        return
      case 'comprehensionExpr': {
        const c = kind.value
        visit(c.iterRange, shadowed)
        const hides = shadowed || c.iterVar === 'args' || c.iterVar2 === 'args' || c.accuVar === 'args'
        for (const part of [c.accuInit, c.loopCondition, c.loopStep, c.result]) visit(part, hides)
        return
      }
      default:
        return
    }
  }
  visit(read.parsed.expr, false)
  return out
}

/** The bindings a condition is evaluated with (docs/design/policy.md#variables). */
export interface ConditionBindings {
  args: Record<string, unknown>
  agent: { namespace: string; name: string; labels: Record<string, string>; units: string[] }
  tool: { id: string; level: string; labels: Record<string, string>; source: { kind: string; namespace: string | null; name: string } }
  person: PolicyPersonBinding | null
  /** A Date, converted to a google.protobuf.Timestamp for CEL. */
  now: unknown
}

/** `person` as conditions read it (the same shape as PolicyPerson in evaluate-policies.ts). */
export interface PolicyPersonBinding {
  id: string
  issuer: string
  displayName: string
  email: string | null
  groups: string[]
  claims: Readonly<Record<string, unknown>>
}

/** A call's bindings as CEL values, for the interpreter. */
export type PreparedBindings = { readonly [name in (typeof CONDITION_VARIABLES)[number]]: unknown } & { readonly __prepared: true }

/**
 * What every condition reaching a call reads (docs/design/policy.md#cost-per-call): the bindings as
 * they are, for the fast path, and converted to CEL values at most once, and only when some condition
 * needs the interpreter. Handed plain objects, @bufbuild/cel converts a variable (and every object
 * below it that a condition reads) again on each read, for each condition (BENCHMARKS.md, Policies).
 */
export interface ConditionInput {
  readonly plain: PlainBindings
  prepared(): PreparedBindings
}

export function conditionInput(bindings: ConditionBindings): ConditionInput {
  let prepared: PreparedBindings | undefined
  return {
    plain: bindings,
    prepared: () => (prepared ??= prepareBindings(bindings)),
  }
}

function prepareBindings(bindings: ConditionBindings): PreparedBindings {
  return {
    args: toCelValue(bindings.args),
    agent: toCelValue(bindings.agent),
    tool: toCelValue(bindings.tool),
    person: toCelValue(bindings.person),
    now: bindings.now instanceof Date ? reflect(TimestampSchema, timestampFromDate(bindings.now)) : bindings.now,
  } as PreparedBindings
}

// As @bufbuild/cel's own conversion of plain values (toCel), done ahead: arrays become lists and plain
// objects maps, all the way down; anything else is left for it to take or refuse when read.
function toCelValue(value: unknown): unknown {
  if (Array.isArray(value)) return celList(value.map(toCelValue) as CelInput[])
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype)
    return celMap(new Map(Object.entries(value).map(([k, v]) => [k, toCelValue(v) as CelInput])))
  return value
}

export type CompiledCondition = (input: ConditionInput) => CelResult

/**
 * Plans a condition that passed conditionProblems; throws on one that did not parse. The fast path
 * (compile-fast-condition.ts) answers when it can; the interpreter answers everything else, errors
 * included, so the result is always the interpreter's. Conditions compiled into one `shared` set
 * (an epoch's Policies) evaluate their common sub-expressions once per call.
 */
export function compileCondition(when: string, shared: FastConditionSet = fastConditionSet()): CompiledCondition {
  return shared.decide(when, compileInterpretedCondition(when))
}

/** The interpreter alone, without the fast path: what the fast path is tested against. */
export function compileInterpretedCondition(when: string): CompiledCondition {
  const run = plan(env, parse(when))
  return (input) => run(input.prepared() as never)
}

function positionOf(text: string, parsed: Parsed) {
  return (expr: Expr): { line: number; column: number } => {
    const offset = parsed.sourceInfo?.positions[String(expr.id)] ?? 0
    const before = text.slice(0, offset).split('\n')
    return { line: before.length, column: before[before.length - 1].length + 1 }
  }
}

function locator(text: string, parsed: Parsed) {
  const at = positionOf(text, parsed)
  return (expr: Expr) => {
    const { line, column } = at(expr)
    return `at ${line}:${column}`
  }
}
