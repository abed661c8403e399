// The fast path of a Policy condition (docs/design/policy.md#cost-per-call): the common subset of CEL
// compiled to JavaScript closures over the call's plain bindings, so a call reached by many Policies
// neither converts its arguments to CEL values nor runs @bufbuild/cel's interpreter for each rule.
// The closures decide only what they are sure of; on anything else (an error, a type they do not
// handle, a value that is not plain JSON) they answer UNDECIDED and the condition is run by the
// interpreter, which then gives the result, or the error a Policy fails closed with. So the fast path
// can only ever agree with the interpreter, or defer to it: tests/unit/policy-fast-path.test.ts
// checks that over random expressions and bindings. Pure.
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

/** "Let the interpreter decide": the closures return it wherever they are not sure to agree with it. */
export const UNDECIDED: unique symbol = Symbol('undecided')
export type Undecided = typeof UNDECIDED

type Closure = (bindings: PlainBindings) => unknown

const VARIABLES = new Set(['args', 'agent', 'tool', 'person'])
const NO_BINDINGS: PlainBindings = { args: undefined, agent: undefined, tool: undefined, person: undefined }

/**
 * A condition's fast path, or null when it uses anything outside the subset (it then always runs on
 * the interpreter). It gives the condition's bool, or undefined where the interpreter must decide.
 */
export function compileFastCondition(when: string): ((bindings: PlainBindings) => boolean | undefined) | null {
  const closure = compileFastExpression(when)
  if (!closure) return null
  return (bindings) => {
    const result = closure(bindings)
    return typeof result === 'boolean' ? result : undefined
  }
}

/** Any expression of the subset, to a closure giving its value (CEL ints as bigint, lists as arrays, maps as plain objects) or UNDECIDED. */
export function compileFastExpression(when: string): Closure | null {
  let expr: Expr | undefined
  try {
    expr = parse(when).expr
  } catch {
    return null
  }
  return expr ? compile(expr) : null
}

function compile(expr: Expr): Closure | null {
  const kind = expr.exprKind
  switch (kind.case) {
    case 'constExpr': {
      const c = kind.value.constantKind
      // uint and bytes have representations of their own in @bufbuild/cel; they stay with it.
      if (c.case === 'int64Value' || c.case === 'doubleValue' || c.case === 'stringValue' || c.case === 'boolValue') {
        const value = c.value
        return () => value
      }
      if (c.case === 'nullValue') return () => null
      return null
    }
    case 'identExpr': {
      const name = kind.value.name
      if (!VARIABLES.has(name)) return null
      return (b) => plainValue(b[name as keyof PlainBindings])
    }
    case 'selectExpr': {
      const operand = kind.value.operand && compile(kind.value.operand)
      if (!operand) return null
      const field = kind.value.field
      if (kind.value.testOnly) return (b) => present(operand(b), field)
      return (b) => {
        const object = operand(b)
        return isPlainObject(object) && Object.hasOwn(object, field) ? plainValue(object[field]) : UNDECIDED
      }
    }
    case 'listExpr': {
      if (kind.value.optionalIndices.length > 0) return null
      const elements = kind.value.elements.map(compile)
      if (elements.some((e) => e === null)) return null
      const closures = elements as Closure[]
      // A list of literals (`args.region in ["eu", "us"]`) is built once; the closures never change a list.
      if (kind.value.elements.every((e) => e.exprKind.case === 'constExpr')) {
        const constant = closures.map((element) => element(NO_BINDINGS))
        return () => constant
      }
      return (b) => {
        const out: unknown[] = []
        for (const element of closures) {
          const value = element(b)
          if (value === UNDECIDED) return UNDECIDED
          out.push(value)
        }
        return out
      }
    }
    case 'callExpr':
      return compileCall(kind.value.function, kind.value.target, kind.value.args)
    default:
      return null
  }
}

function compileCall(fn: string, target: Expr | undefined, argExprs: Expr[]): Closure | null {
  const self = target ? compile(target) : undefined
  if (self === null) return null
  const args = argExprs.map(compile)
  if (args.some((a) => a === null)) return null
  const [a, b, c] = args as Closure[]
  const arity = (n: number, method: boolean) => args.length === n && (self !== undefined) === method
  switch (fn) {
    case '_&&_':
      if (!arity(2, false)) return null
      // CEL's && is commutative over errors (`error && false` is false); here only the left-to-right
      // cases are decided, the rest deferred.
      return (x) => {
        const left = a(x)
        if (left === false) return false
        if (left !== true) return UNDECIDED
        const right = b(x)
        return typeof right === 'boolean' ? right : UNDECIDED
      }
    case '_||_':
      if (!arity(2, false)) return null
      return (x) => {
        const left = a(x)
        if (left === true) return true
        if (left !== false) return UNDECIDED
        const right = b(x)
        return typeof right === 'boolean' ? right : UNDECIDED
      }
    case '!_':
      if (!arity(1, false)) return null
      return (x) => {
        const value = a(x)
        return typeof value === 'boolean' ? !value : UNDECIDED
      }
    case '_?_:_':
      if (!arity(3, false)) return null
      return (x) => {
        const condition = a(x)
        return condition === true ? b(x) : condition === false ? c(x) : UNDECIDED
      }
    case '_==_':
    case '_!=_': {
      if (!arity(2, false)) return null
      const negate = fn === '_!=_'
      return (x) => {
        const equal = scalarEquals(a(x), b(x))
        return equal === UNDECIDED ? UNDECIDED : equal !== negate
      }
    }
    case '_<_':
    case '_<=_':
    case '_>_':
    case '_>=_': {
      if (!arity(2, false)) return null
      const holds = ORDER[fn]
      return (x) => {
        const order = compare(a(x), b(x))
        return order === UNDECIDED ? UNDECIDED : holds(order)
      }
    }
    case '@in':
      if (!arity(2, false)) return null
      return (x) => contains(a(x), b(x))
    case 'size':
      if (self) return args.length === 0 ? (x) => sizeOf(self(x)) : null
      return arity(1, false) ? (x) => sizeOf(a(x)) : null
    case 'startsWith':
    case 'endsWith':
    case 'contains': {
      if (!self || !arity(1, true)) return null
      const test = STRING_TESTS[fn]
      return (x) => {
        const s = self(x)
        const t = a(x)
        return typeof s === 'string' && typeof t === 'string' ? test(s, t) : UNDECIDED
      }
    }
    case 'matches': {
      // The pattern compiled once, when it is a literal, on the RE2 @bufbuild/cel itself runs (linear time).
      if (!self || !arity(1, true)) return null
      const pattern = argExprs[0].exprKind
      if (pattern.case !== 'constExpr' || pattern.value.constantKind.case !== 'stringValue') return null
      let re: RE2JS
      try {
        re = RE2JS.compile(pattern.value.constantKind.value)
      } catch {
        return null
      }
      return (x) => {
        const s = self(x)
        return typeof s === 'string' ? re.test(s) : UNDECIDED
      }
    }
    default:
      return null
  }
}

const STRING_TESTS: Record<'startsWith' | 'endsWith' | 'contains', (s: string, t: string) => boolean> = {
  startsWith: (s, t) => s.startsWith(t),
  endsWith: (s, t) => s.endsWith(t),
  contains: (s, t) => s.includes(t),
}

const ORDER: Record<'_<_' | '_<=_' | '_>_' | '_>=_', (order: Order) => boolean> = {
  '_<_': (o) => o === 'lt',
  '_<=_': (o) => o === 'lt' || o === 'eq',
  '_>_': (o) => o === 'gt',
  '_>=_': (o) => o === 'gt' || o === 'eq',
}

/** 'none' when neither is less, greater or equal (NaN): every ordering comparison is then false. */
type Order = 'lt' | 'eq' | 'gt' | 'none'

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype
}

/** A value of the kinds JSON has, which the fast path reads as @bufbuild/cel would; anything else is the interpreter's. */
function plainValue(value: unknown): unknown {
  return isScalar(value) || Array.isArray(value) || isPlainObject(value) ? value : UNDECIDED
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
