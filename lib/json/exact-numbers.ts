// JSON numbers that JavaScript cannot carry as sent. JSON.parse turns 1e400 into Infinity (sent on
// as null), 1e-400 into 0, and 12345678901234567890 into 12345678901234567168, without a word: an
// argument would pass the inputSchema as one value and reach the upstream as another (-1e400 passes
// `type: number, maximum: 100`, then arrives as null). Such numbers are refused, naming the limit.
// Only valid JSON is scanned (after JSON.parse), so outside strings a `-` or a digit starts a number.

export type NumberRule = 'number-range' | 'number-precision'

export interface InexactNumber {
  rule: NumberRule
  /** Where it is: keys and array indexes from the top. */
  path: Array<string | number>
  message: string
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y

type Frame = { kind: 'object'; key: string; expectsKey: boolean } | { kind: 'array'; index: number }

/** The first number in valid JSON `text` that would not arrive as sent, with where it is; or null. Linear in the text. */
export function findInexactNumber(text: string): InexactNumber | null {
  const stack: Frame[] = []
  for (let i = 0; i < text.length;) {
    const c = text[i]
    const top = stack[stack.length - 1]
    if (c === '"') {
      const end = afterString(text, i + 1)
      if (top?.kind === 'object' && top.expectsKey) top.key = JSON.parse(text.slice(i, end)) as string
      i = end
      continue
    }
    if (c === '-' || (c >= '0' && c <= '9')) {
      NUMBER.lastIndex = i
      const literal = NUMBER.exec(text)?.[0] ?? c
      const problem = numberProblem(literal)
      if (problem) return { ...problem, path: stack.map((f) => (f.kind === 'array' ? f.index : f.key)) }
      i += literal.length
      continue
    }
    if (c === '{') stack.push({ kind: 'object', key: '', expectsKey: true })
    else if (c === '[') stack.push({ kind: 'array', index: 0 })
    else if (c === '}' || c === ']') stack.pop()
    else if (c === ':' && top?.kind === 'object') top.expectsKey = false
    else if (c === ',' && top) {
      if (top.kind === 'array') top.index++
      else top.expectsKey = true
    }
    i++
  }
  return null
}

/** A path as problem details name fields: `arguments.items[2].price`; `(body)` for the top. */
export function fieldOf(path: ReadonlyArray<string | number>): string {
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? p : `.${p}`)).join('') || '(body)'
}

/** Why a JSON number literal would not arrive as sent, or null. */
export function numberProblem(literal: string): { rule: NumberRule; message: string } | null {
  const value = Number(literal)
  const shown = literal.length > 40 ? `${literal.slice(0, 24)}… (${literal.length} characters)` : literal
  if (!Number.isFinite(value))
    return {
      rule: 'number-range',
      message: `the number ${shown} is out of range: JSON numbers are carried as doubles, at most about 1.8e308 in size (it would become null)`,
    }
  if (value === 0 && /[1-9]/.test(literal.split(/[eE]/)[0]))
    return {
      rule: 'number-range',
      message: `the number ${shown} is out of range: JSON numbers are carried as doubles, at least about 5e-324 in size unless 0 (it would become 0)`,
    }
  // An integer written out in full must come back as itself: sent on, the double is written as its
  // shortest form, which is the literal again for 100000000000000000000 (1e20) and for every other
  // integer that is a double's shortest form, but 12345678901234567168 for 12345678901234567890.
  if (!/[.eE]/.test(literal) && !Number.isSafeInteger(value) && String(value) !== literal)
    return {
      rule: 'number-precision',
      message: `the integer ${shown} is not carried exactly: JSON numbers are doubles, exact for every integer only up to ${Number.MAX_SAFE_INTEGER} (2^53 - 1) (it would become ${value}; send it as a string)`,
    }
  return null
}

function afterString(text: string, from: number): number {
  for (let i = from; ;) {
    const quote = text.indexOf('"', i)
    if (quote < 0) return text.length
    // The quote is escaped when an odd number of backslashes precede it.
    let slashes = 0
    while (text.charCodeAt(quote - 1 - slashes) === 0x5c) slashes++
    if (slashes % 2 === 0) return quote + 1
    i = quote + 1
  }
}
