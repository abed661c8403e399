// The fast path of a Policy condition (docs/design/policy.md#cost-per-call): the common subset of CEL
// compiled to a small program over the call's plain bindings, so a call reached by many Policies
// neither converts its arguments to CEL values nor runs @bufbuild/cel's interpreter for each rule.
// The program decides only what it is sure of; on anything else (an error, a type it does not
// handle, a value that is not plain JSON) it answers UNDECIDED and the condition is run by the
// interpreter, which then gives the result, or the error a Policy fails closed with. So the fast path
// can only ever agree with the interpreter, or defer to it: tests/unit/policy-fast-path.test.ts
// checks that over random expressions and bindings. Conditions compiled together (a registry epoch's
// Policies) share their common sub-expressions, each evaluated at most once per call. Pure.
import { parse } from '@bufbuild/cel'
import type { Expr } from '@bufbuild/cel-spec/cel/expr/syntax_pb.js'
import { RE2JS } from '@bufbuild/re2'

/** The variables the fast path reads, as the call has them (no CEL conversion); `now` is left to the interpreter. */
export interface PlainBindings {
  readonly args: unknown
  readonly agent: unknown
  readonly tool: unknown
  readonly person: unknown
}

/** "Let the interpreter decide": the fast path answers it wherever it is not sure to agree with it. */
export const UNDECIDED: unique symbol = Symbol('undecided')
export type Undecided = typeof UNDECIDED

type Closure = (bindings: PlainBindings) => unknown

// A set's conditions are one program: each node is a few small integers in one array (its operation,
// its memo slot or -1, its operands: other nodes' addresses, constants' indexes), so evaluating 100
// conditions reads a few contiguous cache lines per condition rather than a dozen closures and their
// contexts scattered over the heap. In the gateway, which runs everything else between two calls,
// those reads from memory, not the work, were most of a condition's cost (BENCHMARKS.md, Policies).
const CONST = 0 // [op, -1, constant]
const VAR = 1 // [op, -1, variable]
const SELECT = 2 // [op, slot, field, node]
const SELECT_VAR = 3 // [op, slot, field, variable]: a field of a variable, read from the binding itself
const HAS = 4 // [op, slot, field, node]
const HAS_VAR = 5 // [op, slot, field, variable]
const LIST = 6 // [op, slot, n, node × n]
const AND = 7 // [op, slot, node, node]
const OR = 8
const NOT = 9 // [op, slot, node]
const COND = 10 // [op, slot, node, node, node]
const EQ = 11 // [op, slot, node, node]
const NE = 12
const LT = 13
const LE = 14
const GT = 15
const GE = 16
const IN = 17
const SIZE = 18 // [op, slot, node]
const STARTS_WITH = 19 // [op, slot, node, node]
const ENDS_WITH = 20
const CONTAINS = 21
const MATCHES = 22 // [op, slot, node, compiled RE2 constant]

const BINARY: Record<string, number> = {
  '_==_': EQ,
  '_!=_': NE,
  '_<_': LT,
  '_<=_': LE,
  '_>_': GT,
  '_>=_': GE,
  '@in': IN,
  '_&&_': AND,
  '_||_': OR,
}
const STRING_METHODS: Record<string, number> = { startsWith: STARTS_WITH, endsWith: ENDS_WITH, contains: CONTAINS }

const VARIABLES = ['args', 'agent', 'tool', 'person'] as const

function variable(b: PlainBindings, v: number): unknown {
  return v === 0 ? b.args : v === 1 ? b.agent : v === 2 ? b.tool : b.person
}

/**
 * Conditions compiled together (a registry epoch's Policies, docs/design/policy.md#cost-per-call):
 * structurally equal sub-expressions over the same bindings are one node, and a node used in more
 * than one place is evaluated at most once per call (all of 100 Policies' `has(args.key)` is read
 * once). A call is the bindings object the conditions are handed: the remembered values hold while
 * it is the same object (evaluateReaching builds one per call, and nothing changes it during the call).
 */
export interface FastConditionSet {
  /** A condition's fast path, or null when it uses anything outside the subset (it then always runs on the interpreter): its bool, or undefined where the interpreter must decide. */
  condition(when: string): ((bindings: PlainBindings) => boolean | undefined) | null
  /**
   * A condition decided by its fast path where it can, by `otherwise` everywhere else (or by
   * `otherwise` alone when it is outside the subset): one closure per condition, for the gateway's
   * many (policy-condition.ts passes the interpreter).
   */
  decide<Input extends { readonly plain: PlainBindings }, Result>(when: string, otherwise: (input: Input) => Result): (input: Input) => boolean | Result
  /** Any expression of the subset, to a closure giving its value (CEL ints as bigint, lists as arrays, maps as plain objects) or UNDECIDED. */
  expression(when: string): Closure | null
  /** Distinct nodes, and those evaluated once per call for more than one parent. */
  readonly stats: { nodes: number; shared: number }
}

export function fastConditionSet(): FastConditionSet {
  const code: number[] = []
  const constants: unknown[] = []
  const constantIndex = new Map<string, number>()
  const nodes = new Map<string, number>()
  // The remembered values of shared nodes (by slot), valid for the call whose bindings are `call`.
  const values: unknown[] = []
  const stamps: number[] = []
  let generation = 0
  let call: PlainBindings | null = null
  const stats = { nodes: 0, shared: 0 }

  const constant = (key: string, value: unknown): number => {
    let k = constantIndex.get(key)
    if (k === undefined) {
      k = constants.length
      constants.push(value)
      constantIndex.set(key, k)
    }
    return k
  }

  /** The node of this structure: the one already compiled (now shared), or a new one. */
  const node = (key: string, words: number[]): number => {
    const known = nodes.get(key)
    if (known !== undefined) {
      if (code[known] !== CONST && code[known] !== VAR && code[known + 1] < 0) {
        code[known + 1] = values.length
        values.push(undefined)
        stamps.push(-1)
        stats.shared++
      }
      return known
    }
    const at = code.length
    for (const word of words) code.push(word)
    nodes.set(key, at)
    stats.nodes++
    return at
  }

  const literal = (key: string, value: unknown) => node(`k${key}`, [CONST, -1, constant(key, value)])

  function compile(expr: Expr): number | null {
    const kind = expr.exprKind
    switch (kind.case) {
      case 'constExpr': {
        const c = kind.value.constantKind
        // uint and bytes have representations of their own in @bufbuild/cel; they stay with it.
        if (c.case === 'int64Value' || c.case === 'doubleValue' || c.case === 'stringValue' || c.case === 'boolValue')
          return literal(constantKey(c.case, c.value), c.value)
        if (c.case === 'nullValue') return literal('null', null)
        return null
      }
      case 'identExpr': {
        const v = VARIABLES.indexOf(kind.value.name as (typeof VARIABLES)[number])
        return v < 0 ? null : node(`v${v}`, [VAR, -1, v])
      }
      case 'selectExpr': {
        const operand = kind.value.operand
        if (!operand) return null
        const field = constant(constantKey('field', kind.value.field), kind.value.field)
        const test = kind.value.testOnly
        // A field of a variable reads the binding itself: a map that is not plain JSON is the interpreter's either way.
        const v = operand.exprKind.case === 'identExpr' ? VARIABLES.indexOf(operand.exprKind.value.name as (typeof VARIABLES)[number]) : -1
        if (v >= 0) return node(`${test ? 'h' : 's'}${field}v${v}`, [test ? HAS_VAR : SELECT_VAR, -1, field, v])
        const a = compile(operand)
        return a === null ? null : node(`${test ? 'h' : 's'}${field}(${a})`, [test ? HAS : SELECT, -1, field, a])
      }
      case 'listExpr': {
        if (kind.value.optionalIndices.length > 0) return null
        const elements: number[] = []
        for (const element of kind.value.elements) {
          const e = compile(element)
          if (e === null) return null
          elements.push(e)
        }
        const key = `l[${elements.join(',')}]`
        // A list of literals (`args.region in ["eu", "us"]`) is built once; nothing changes a list.
        if (elements.every((e) => code[e] === CONST)) return node(key, [CONST, -1, constants.push(elements.map((e) => constants[code[e + 2]])) - 1])
        return node(key, [LIST, -1, elements.length, ...elements])
      }
      case 'callExpr':
        return compileCall(kind.value.function, kind.value.target, kind.value.args)
      default:
        return null
    }
  }

  function compileCall(fn: string, target: Expr | undefined, argExprs: Expr[]): number | null {
    const self = target ? compile(target) : undefined
    if (self === null) return null
    const args: number[] = []
    for (const arg of argExprs) {
      const a = compile(arg)
      if (a === null) return null
      args.push(a)
    }
    const method = self !== undefined
    const key = `c${JSON.stringify(fn)}(${method ? self : '-'};${args.join(',')})`
    if (Object.hasOwn(BINARY, fn) && !method && args.length === 2) return node(key, [BINARY[fn], -1, args[0], args[1]])
    if (fn === '!_' && !method && args.length === 1) return node(key, [NOT, -1, args[0]])
    if (fn === '_?_:_' && !method && args.length === 3) return node(key, [COND, -1, args[0], args[1], args[2]])
    if (fn === 'size' && method && args.length === 0) return node(key, [SIZE, -1, self])
    if (fn === 'size' && !method && args.length === 1) return node(key, [SIZE, -1, args[0]])
    if (Object.hasOwn(STRING_METHODS, fn) && method && args.length === 1) return node(key, [STRING_METHODS[fn], -1, self, args[0]])
    if (fn === 'matches' && method && args.length === 1) {
      // The pattern compiled once, when it is a literal, on the RE2 @bufbuild/cel itself runs (linear time).
      const pattern = code[args[0]] === CONST ? constants[code[args[0] + 2]] : undefined
      if (typeof pattern !== 'string') return null
      let re: RE2JS
      try {
        re = RE2JS.compile(pattern)
      } catch {
        return null
      }
      return node(key, [MATCHES, -1, self, constant(`re${JSON.stringify(pattern)}`, re)])
    }
    return null
  }

  function evaluate(at: number, b: PlainBindings): unknown {
    const op = code[at]
    if (op === CONST) return constants[code[at + 2]]
    const slot = code[at + 1]
    if (slot >= 0 && stamps[slot] === generation) return values[slot]
    let value: unknown
    switch (op) {
      case VAR:
        value = plainValue(variable(b, code[at + 2]))
        break
      case SELECT:
        value = selectField(evaluate(code[at + 3], b), constants[code[at + 2]] as string)
        break
      case SELECT_VAR:
        value = selectField(variable(b, code[at + 3]), constants[code[at + 2]] as string)
        break
      case HAS:
        value = present(evaluate(code[at + 3], b), constants[code[at + 2]] as string)
        break
      case HAS_VAR:
        value = present(variable(b, code[at + 3]), constants[code[at + 2]] as string)
        break
      case LIST: {
        const out: unknown[] = []
        for (let i = 0, n = code[at + 2]; i < n; i++) {
          const element = evaluate(code[at + 3 + i], b)
          if (element === UNDECIDED) {
            out.length = 0
            break
          }
          out.push(element)
        }
        value = out.length === code[at + 2] ? out : UNDECIDED
        break
      }
      case AND: {
        // CEL's && is commutative over errors (`error && false` is false); here only the
        // left-to-right cases are decided, the rest deferred.
        const left = evaluate(code[at + 2], b)
        if (left === false) value = false
        else if (left !== true) value = UNDECIDED
        else {
          const right = evaluate(code[at + 3], b)
          value = typeof right === 'boolean' ? right : UNDECIDED
        }
        break
      }
      case OR: {
        const left = evaluate(code[at + 2], b)
        if (left === true) value = true
        else if (left !== false) value = UNDECIDED
        else {
          const right = evaluate(code[at + 3], b)
          value = typeof right === 'boolean' ? right : UNDECIDED
        }
        break
      }
      case NOT: {
        const operand = evaluate(code[at + 2], b)
        value = typeof operand === 'boolean' ? !operand : UNDECIDED
        break
      }
      case COND: {
        const condition = evaluate(code[at + 2], b)
        value = condition === true ? evaluate(code[at + 3], b) : condition === false ? evaluate(code[at + 4], b) : UNDECIDED
        break
      }
      case EQ:
        value = scalarEquals(evaluate(code[at + 2], b), evaluate(code[at + 3], b))
        break
      case NE: {
        const equal = scalarEquals(evaluate(code[at + 2], b), evaluate(code[at + 3], b))
        value = equal === UNDECIDED ? UNDECIDED : !equal
        break
      }
      case LT:
      case LE:
      case GT:
      case GE: {
        const order = compare(evaluate(code[at + 2], b), evaluate(code[at + 3], b))
        value = order === UNDECIDED ? UNDECIDED : holds(op, order)
        break
      }
      case IN:
        value = contains(evaluate(code[at + 2], b), evaluate(code[at + 3], b))
        break
      case SIZE:
        value = sizeOf(evaluate(code[at + 2], b))
        break
      case STARTS_WITH:
      case ENDS_WITH:
      case CONTAINS: {
        const s = evaluate(code[at + 2], b)
        const t = evaluate(code[at + 3], b)
        value =
          typeof s !== 'string' || typeof t !== 'string' ? UNDECIDED : op === STARTS_WITH ? s.startsWith(t) : op === ENDS_WITH ? s.endsWith(t) : s.includes(t)
        break
      }
      case MATCHES: {
        const s = evaluate(code[at + 2], b)
        value = typeof s === 'string' ? (constants[code[at + 3]] as RE2JS).test(s) : UNDECIDED
        break
      }
      default:
        throw new Error(`no operation ${op} at ${at}`)
    }
    if (slot >= 0) {
      values[slot] = value
      stamps[slot] = generation
    }
    return value
  }

  const root = (when: string): number | null => {
    let expr: Expr | undefined
    try {
      expr = parse(when).expr
    } catch {
      return null
    }
    return expr ? compile(expr) : null
  }

  const enter = (b: PlainBindings) => {
    if (call !== b) {
      call = b
      generation++
    }
  }

  return {
    condition(when) {
      const at = root(when)
      if (at === null) return null
      return (b) => {
        enter(b)
        const result = evaluate(at, b)
        return typeof result === 'boolean' ? result : undefined
      }
    },
    decide(when, otherwise) {
      const at = root(when)
      if (at === null) return otherwise
      return (input) => {
        const b = input.plain
        enter(b)
        const result = evaluate(at, b)
        return typeof result === 'boolean' ? result : otherwise(input)
      }
    },
    expression(when) {
      const at = root(when)
      if (at === null) return null
      return (b) => {
        enter(b)
        return evaluate(at, b)
      }
    },
    stats,
  }
}

/** One condition's fast path, compiled on its own (shared sub-expressions within it are still evaluated once). */
export function compileFastCondition(when: string): ((bindings: PlainBindings) => boolean | undefined) | null {
  return fastConditionSet().condition(when)
}

/** One expression of the subset, compiled on its own. */
export function compileFastExpression(when: string): Closure | null {
  return fastConditionSet().expression(when)
}

/** A literal's key: its CEL type and value (`1`, `1.0` and `"1"` differ, and so do `0.0` and `-0.0`). */
function constantKey(kind: string, value: unknown): string {
  return `${kind}:${typeof value === 'string' ? JSON.stringify(value) : Object.is(value, -0) ? '-0' : String(value)}`
}

function selectField(object: unknown, field: string): unknown {
  return isPlainObject(object) && Object.hasOwn(object, field) ? plainValue(object[field]) : UNDECIDED
}

/** 'none' when neither is less, greater or equal (NaN): every ordering comparison is then false. */
type Order = 'lt' | 'eq' | 'gt' | 'none'

function holds(op: number, order: Order): boolean {
  return op === LT ? order === 'lt' : op === LE ? order === 'lt' || order === 'eq' : op === GT ? order === 'gt' : order === 'gt' || order === 'eq'
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype
}

/** A value of the kinds JSON has, which the fast path reads as @bufbuild/cel would; anything else is the interpreter's. */
function plainValue(value: unknown): unknown {
  if (value === null) return value
  switch (typeof value) {
    case 'object':
      return Array.isArray(value) || Object.getPrototypeOf(value) === Object.prototype ? value : UNDECIDED
    case 'boolean':
    case 'number':
    case 'bigint':
    case 'string':
      return value
    default:
      return UNDECIDED
  }
}

type Scalar = null | boolean | number | bigint | string

function isScalar(value: unknown): value is Scalar {
  const t = typeof value
  return value === null || t === 'boolean' || t === 'number' || t === 'bigint' || t === 'string'
}

const isNumber = (value: unknown): value is number | bigint => typeof value === 'number' || typeof value === 'bigint'

/** CEL equality of two scalars: numbers across int and double, anything else only of one type. */
function scalarEquals(left: unknown, right: unknown): boolean | Undecided {
  if (!isScalar(left) || !isScalar(right)) return UNDECIDED
  if (left === right) return true
  // `==` between a bigint and a number compares their exact values, as @bufbuild/cel's equals does.
  return isNumber(left) && isNumber(right) && left == right
}

/** The overloads of CEL's ordering operators for int, double, string and bool; int against double as @bufbuild/cel converts it (Number(int)). */
function compare(left: unknown, right: unknown): Order | Undecided {
  const tl = typeof left
  const tr = typeof right
  let l: unknown = left
  let r: unknown = right
  if (tl === 'bigint' && tr === 'number') l = Number(left)
  else if (tl === 'number' && tr === 'bigint') r = Number(right)
  else if (tl !== tr || (tl !== 'number' && tl !== 'bigint' && tl !== 'string' && tl !== 'boolean')) return UNDECIDED
  const a = l as number
  const b = r as number
  return a < b ? 'lt' : a > b ? 'gt' : a === b ? 'eq' : 'none'
}

/** Whether a map has the key, as @bufbuild/cel's maps answer `has()` and `in`: a key bound to null is absent. */
function present(object: unknown, key: string): boolean | Undecided {
  if (!isPlainObject(object)) return UNDECIDED
  if (!Object.hasOwn(object, key)) return false
  const value = object[key]
  if (value === undefined || value === null) return false
  return plainValue(value) === UNDECIDED ? UNDECIDED : true
}

function contains(value: unknown, container: unknown): boolean | Undecided {
  if (Array.isArray(container)) {
    if (!isScalar(value)) return UNDECIDED
    for (const element of container) {
      const equal = scalarEquals(element, value)
      if (equal === UNDECIDED) return UNDECIDED
      if (equal) return true
    }
    return false
  }
  if (isPlainObject(container) && typeof value === 'string') return present(container, value)
  return UNDECIDED
}

function sizeOf(value: unknown): bigint | Undecided {
  // CEL's size of a string counts code points, not UTF-16 units.
  if (typeof value === 'string') return BigInt([...value].length)
  if (Array.isArray(value)) return BigInt(value.length)
  if (isPlainObject(value)) return BigInt(Object.keys(value).length)
  return UNDECIDED
}
