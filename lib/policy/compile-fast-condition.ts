// The fast path of a Policy condition (docs/design/policy.md#cost-per-call): the common subset of CEL
// compiled to JavaScript closures over the call's plain bindings, so a call reached by many Policies
// neither converts its arguments to CEL values nor runs @bufbuild/cel's interpreter for each rule.
// The closures decide only what they are sure of; on anything else (an error, a type they do not
// handle, a value that is not plain JSON) they answer UNDECIDED and the condition is run by the
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

/** "Let the interpreter decide": the closures return it wherever they are not sure to agree with it. */
export const UNDECIDED: unique symbol = Symbol('undecided')
export type Undecided = typeof UNDECIDED

type Closure = (bindings: PlainBindings) => unknown

/**
 * A compiled sub-expression. Parents call `run` through the node, not a captured closure: when a
 * second parent turns up, `run` is swapped for one that remembers its value for the call.
 */
interface Node {
  run: Closure
  /** A literal's value, which parents read directly instead of calling `run`. */
  readonly constant: boolean
  readonly value: unknown
  /** A variable read: cheaper to run again than to remember. */
  readonly variable: boolean
  memoized: boolean
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
  /** Any expression of the subset, to a closure giving its value (CEL ints as bigint, lists as arrays, maps as plain objects) or UNDECIDED. */
  expression(when: string): Closure | null
  /** Distinct nodes, and those evaluated once per call for more than one parent. */
  readonly stats: { nodes: number; shared: number }
}

export function fastConditionSet(): FastConditionSet {
  const nodes = new Map<string, Node>()
  const ids = new Map<Node, number>()
  // The remembered values of shared nodes, valid for the call whose bindings are `call`.
  const memo = { call: null as PlainBindings | null, generation: 0, stamps: [] as number[], values: [] as unknown[] }
  const stats = { nodes: 0, shared: 0 }

  const intern = (key: string, build: () => Omit<Node, 'memoized'> | null): Node | null => {
    const known = nodes.get(key)
    if (known) {
      remember(known)
      return known
    }
    const built = build()
    if (!built) return null
    const node: Node = { ...built, memoized: false }
    nodes.set(key, node)
    ids.set(node, ids.size)
    stats.nodes++
    return node
  }

  const remember = (node: Node) => {
    if (node.constant || node.variable || node.memoized) return
    node.memoized = true
    stats.shared++
    const slot = memo.values.length
    memo.values.push(undefined)
    memo.stamps.push(-1)
    const compute = node.run
    node.run = (b) => {
      if (memo.stamps[slot] === memo.generation) return memo.values[slot]
      const value = compute(b)
      memo.values[slot] = value
      memo.stamps[slot] = memo.generation
      return value
    }
  }

  const root = (when: string): Node | null => {
    let expr: Expr | undefined
    try {
      expr = parse(when).expr
    } catch {
      return null
    }
    return expr ? compileNode(expr, intern, ids) : null
  }

  const enter = (b: PlainBindings) => {
    if (memo.call !== b) {
      memo.call = b
      memo.generation++
    }
  }

  return {
    condition(when) {
      const node = root(when)
      if (!node) return null
      return (b) => {
        enter(b)
        const result = node.run(b)
        return typeof result === 'boolean' ? result : undefined
      }
    },
    expression(when) {
      const node = root(when)
      if (!node) return null
      return (b) => {
        enter(b)
        return node.run(b)
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

type Intern = (key: string, build: () => Omit<Node, 'memoized'> | null) => Node | null

const computed = (run: Closure): Omit<Node, 'memoized'> => ({ run, constant: false, value: undefined, variable: false })
const literal = (value: unknown): Omit<Node, 'memoized'> => ({ run: () => value, constant: true, value, variable: false })

/** A literal's key: its CEL type and value (`1`, `1.0` and `"1"` differ, and so do `0.0` and `-0.0`). */
function constantKey(kind: string, value: unknown): string {
  return `k${kind}:${typeof value === 'string' ? JSON.stringify(value) : Object.is(value, -0) ? '-0' : String(value)}`
}

const VARIABLE_READS: Record<keyof PlainBindings, (b: PlainBindings) => unknown> = {
  args: (b) => b.args,
  agent: (b) => b.agent,
  tool: (b) => b.tool,
  person: (b) => b.person,
}

const isVariable = (name: string): name is keyof PlainBindings => Object.hasOwn(VARIABLE_READS, name)

function compileNode(expr: Expr, intern: Intern, ids: Map<Node, number>): Node | null {
  const kind = expr.exprKind
  const id = (node: Node) => ids.get(node)
  switch (kind.case) {
    case 'constExpr': {
      const c = kind.value.constantKind
      // uint and bytes have representations of their own in @bufbuild/cel; they stay with it.
      if (c.case === 'int64Value' || c.case === 'doubleValue' || c.case === 'stringValue' || c.case === 'boolValue') {
        const value = c.value
        return intern(constantKey(c.case, value), () => literal(value))
      }
      if (c.case === 'nullValue') return intern('knull', () => literal(null))
      return null
    }
    case 'identExpr': {
      const name = kind.value.name
      if (!isVariable(name)) return null
      const read = VARIABLE_READS[name]
      return intern(`v${name}`, () => ({ run: (b) => plainValue(read(b)), constant: false, value: undefined, variable: true }))
    }
    case 'selectExpr': {
      const operandExpr = kind.value.operand
      if (!operandExpr) return null
      const operand = compileNode(operandExpr, intern, ids)
      if (!operand) return null
      const field = kind.value.field
      const testOnly = kind.value.testOnly
      return intern(`${testOnly ? 'h' : 's'}${JSON.stringify(field)}(${id(operand)})`, () => {
        // A field of a variable reads the binding itself: a map that is not plain JSON is the interpreter's either way.
        const read =
          operandExpr.exprKind.case === 'identExpr' && isVariable(operandExpr.exprKind.value.name) ? VARIABLE_READS[operandExpr.exprKind.value.name] : undefined
        if (testOnly) return computed(read ? (b) => present(read(b), field) : (b) => present(operand.run(b), field))
        return computed(read ? (b) => selectField(read(b), field) : (b) => selectField(operand.run(b), field))
      })
    }
    case 'listExpr': {
      if (kind.value.optionalIndices.length > 0) return null
      const elements: Node[] = []
      for (const element of kind.value.elements) {
        const node = compileNode(element, intern, ids)
        if (!node) return null
        elements.push(node)
      }
      return intern(`l[${elements.map(id).join(',')}]`, () => {
        // A list of literals (`args.region in ["eu", "us"]`) is built once; the closures never change a list.
        if (elements.every((e) => e.constant))
          return computed(
            (
              (constant) => () =>
                constant
            )(elements.map((e) => e.value)),
          )
        return computed((b) => {
          const out: unknown[] = []
          for (const element of elements) {
            const value = element.run(b)
            if (value === UNDECIDED) return UNDECIDED
            out.push(value)
          }
          return out
        })
      })
    }
    case 'callExpr': {
      const { function: fn, target, args: argExprs } = kind.value
      const self = target ? compileNode(target, intern, ids) : undefined
      if (self === null) return null
      const args: Node[] = []
      for (const arg of argExprs) {
        const node = compileNode(arg, intern, ids)
        if (!node) return null
        args.push(node)
      }
      return intern(`c${JSON.stringify(fn)}(${self ? id(self) : '-'};${args.map(id).join(',')})`, () => {
        const run = compileCall(fn, self, args)
        return run && computed(run)
      })
    }
    default:
      return null
  }
}

function selectField(object: unknown, field: string): unknown {
  return isPlainObject(object) && Object.hasOwn(object, field) ? plainValue(object[field]) : UNDECIDED
}

/** A closure applying `f` to two operands, a literal operand read once at compile time. */
function binary(a: Node, b: Node, f: (left: unknown, right: unknown) => unknown): Closure {
  if (a.constant) {
    const left = a.value
    return (x) => f(left, b.run(x))
  }
  if (b.constant) {
    const right = b.value
    return (x) => f(a.run(x), right)
  }
  return (x) => f(a.run(x), b.run(x))
}

function compileCall(fn: string, self: Node | undefined, args: Node[]): Closure | null {
  const [a, b, c] = args
  const arity = (n: number, method: boolean) => args.length === n && (self !== undefined) === method
  switch (fn) {
    case '_&&_':
      if (!arity(2, false)) return null
      // CEL's && is commutative over errors (`error && false` is false); here only the left-to-right
      // cases are decided, the rest deferred.
      return (x) => {
        const left = a.run(x)
        if (left === false) return false
        if (left !== true) return UNDECIDED
        const right = b.run(x)
        return typeof right === 'boolean' ? right : UNDECIDED
      }
    case '_||_':
      if (!arity(2, false)) return null
      return (x) => {
        const left = a.run(x)
        if (left === true) return true
        if (left !== false) return UNDECIDED
        const right = b.run(x)
        return typeof right === 'boolean' ? right : UNDECIDED
      }
    case '!_':
      if (!arity(1, false)) return null
      return (x) => {
        const value = a.run(x)
        return typeof value === 'boolean' ? !value : UNDECIDED
      }
    case '_?_:_':
      if (!arity(3, false)) return null
      return (x) => {
        const condition = a.run(x)
        return condition === true ? b.run(x) : condition === false ? c.run(x) : UNDECIDED
      }
    case '_==_':
      return arity(2, false) ? binary(a, b, scalarEquals) : null
    case '_!=_':
      return arity(2, false) ? binary(a, b, scalarDiffers) : null
    case '_<_':
    case '_<=_':
    case '_>_':
    case '_>=_':
      return arity(2, false) ? binary(a, b, ORDER[fn]) : null
    case '@in':
      return arity(2, false) ? binary(a, b, contains) : null
    case 'size':
      if (self) return args.length === 0 ? (x) => sizeOf(self.run(x)) : null
      return arity(1, false) ? (x) => sizeOf(a.run(x)) : null
    case 'startsWith':
    case 'endsWith':
    case 'contains':
      if (!self || !arity(1, true)) return null
      return binary(self, a, STRING_TESTS[fn])
    case 'matches': {
      // The pattern compiled once, when it is a literal, on the RE2 @bufbuild/cel itself runs (linear time).
      if (!self || !arity(1, true) || !a.constant || typeof a.value !== 'string') return null
      let re: RE2JS
      try {
        re = RE2JS.compile(a.value)
      } catch {
        return null
      }
      return (x) => {
        const s = self.run(x)
        return typeof s === 'string' ? re.test(s) : UNDECIDED
      }
    }
    default:
      return null
  }
}

const STRING_TESTS: Record<'startsWith' | 'endsWith' | 'contains', (s: unknown, t: unknown) => boolean | Undecided> = {
  startsWith: (s, t) => (typeof s === 'string' && typeof t === 'string' ? s.startsWith(t) : UNDECIDED),
  endsWith: (s, t) => (typeof s === 'string' && typeof t === 'string' ? s.endsWith(t) : UNDECIDED),
  contains: (s, t) => (typeof s === 'string' && typeof t === 'string' ? s.includes(t) : UNDECIDED),
}

/** 'none' when neither is less, greater or equal (NaN): every ordering comparison is then false. */
type Order = 'lt' | 'eq' | 'gt' | 'none'

const ordering =
  (holds: (order: Order) => boolean) =>
  (left: unknown, right: unknown): boolean | Undecided => {
    const order = compare(left, right)
    return order === UNDECIDED ? UNDECIDED : holds(order)
  }

const ORDER: Record<'_<_' | '_<=_' | '_>_' | '_>=_', (left: unknown, right: unknown) => boolean | Undecided> = {
  '_<_': ordering((o) => o === 'lt'),
  '_<=_': ordering((o) => o === 'lt' || o === 'eq'),
  '_>_': ordering((o) => o === 'gt'),
  '_>=_': ordering((o) => o === 'gt' || o === 'eq'),
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

function scalarDiffers(left: unknown, right: unknown): boolean | Undecided {
  const equal = scalarEquals(left, right)
  return equal === UNDECIDED ? UNDECIDED : !equal
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
