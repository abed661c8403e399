// Kubernetes label selectors (`a=b,c!=d,e in (x,y),f notin (z),g,!h`): one parser, one matcher, one
// printer. Pure. The grammar and the meaning of each operator are Kubernetes' own
// (k8s.io/apimachinery labels.Parse), so a selector copied from kubectl means the same here:
// `!=` and `notin` also match resources that do not carry the key at all. The set-based `>`/`<`
// (integer comparison) are not supported and are refused with a message saying so.

export type LabelOperator = 'equals' | 'notEquals' | 'in' | 'notIn' | 'exists' | 'doesNotExist'

export interface LabelRequirement {
  key: string
  operator: LabelOperator
  /** One value for `equals`/`notEquals`, one or more for `in`/`notIn`, none for the existence tests. */
  values: string[]
}

export interface LabelSelector {
  requirements: LabelRequirement[]
}

export type ParsedLabelSelector = { ok: true; selector: LabelSelector } | { ok: false; position: number; message: string }

/** The same key rule stored labels follow (`metadata.labels` in lib/manifests/kinds.ts). */
export const LABEL_KEY = /^([a-z0-9.-]+\/)?[A-Za-z0-9]([A-Za-z0-9._-]*[A-Za-z0-9])?$/
export const MAX_LABEL_KEY_LENGTH = 317
export const MAX_LABEL_VALUE_LENGTH = 63
export const MAX_SELECTOR_LENGTH = 4096
export const MAX_REQUIREMENTS = 50
export const MAX_SET_VALUES = 100

type Token =
  | { type: 'word'; text: string; at: number }
  | { type: 'op'; text: '=' | '==' | '!=' | '!' | '(' | ')' | ',' | '>' | '<'; at: number }
  | { type: 'end'; at: number }

// Kubernetes' lexer: a word is anything up to whitespace or one of these characters.
const SPECIAL = new Set(['!', '=', '(', ')', ',', '>', '<'])

function tokenize(text: string): Token[] {
  const tokens: Token[] = []
  let i = 0
  while (i < text.length) {
    const ch = text[i]
    if (/\s/.test(ch)) {
      i++
      continue
    }
    if (ch === '=' || ch === '!') {
      const two = text.slice(i, i + 2)
      if (two === '==' || two === '!=') {
        tokens.push({ type: 'op', text: two, at: i })
        i += 2
        continue
      }
      tokens.push({ type: 'op', text: ch, at: i })
      i++
      continue
    }
    if (SPECIAL.has(ch)) {
      tokens.push({ type: 'op', text: ch as '(' | ')' | ',' | '>' | '<', at: i })
      i++
      continue
    }
    const start = i
    while (i < text.length && !/\s/.test(text[i]) && !SPECIAL.has(text[i])) i++
    tokens.push({ type: 'word', text: text.slice(start, i), at: start })
  }
  tokens.push({ type: 'end', at: text.length })
  return tokens
}

class SelectorSyntaxError extends Error {
  constructor(
    readonly position: number,
    message: string,
  ) {
    super(message)
  }
}

export function parseLabelSelector(text: string): ParsedLabelSelector {
  if (text.length > MAX_SELECTOR_LENGTH) return { ok: false, position: MAX_SELECTOR_LENGTH, message: `a selector is at most ${MAX_SELECTOR_LENGTH} characters` }
  try {
    return { ok: true, selector: { requirements: parseTokens(tokenize(text)) } }
  } catch (error) {
    if (error instanceof SelectorSyntaxError) return { ok: false, position: error.position, message: error.message }
    throw error
  }
}

function describe(token: Token): string {
  return token.type === 'end' ? 'the end of the selector' : `"${token.text}"`
}

function parseTokens(tokens: Token[]): LabelRequirement[] {
  let i = 0
  const peek = () => tokens[i]
  const next = () => tokens[i++]
  const requirements: LabelRequirement[] = []
  if (peek().type === 'end') return requirements

  const key = (): string => {
    const t = next()
    if (t.type !== 'word') throw new SelectorSyntaxError(t.at, `expected a label key, found ${describe(t)}`)
    if (t.text.length > MAX_LABEL_KEY_LENGTH) throw new SelectorSyntaxError(t.at, `a label key is at most ${MAX_LABEL_KEY_LENGTH} characters`)
    if (!LABEL_KEY.test(t.text))
      throw new SelectorSyntaxError(
        t.at,
        `"${t.text}" is not a label key: "[prefix/]name" of letters, digits, ".", "_" and "-", starting and ending with a letter or digit`,
      )
    return t.text
  }
  const value = (): string => {
    const t = peek()
    // `a=` (an empty value) is allowed, as in Kubernetes: it matches a label whose value is "".
    if (t.type !== 'word') return ''
    i++
    if (t.text.length > MAX_LABEL_VALUE_LENGTH) throw new SelectorSyntaxError(t.at, `a label value is at most ${MAX_LABEL_VALUE_LENGTH} characters`)
    return t.text
  }
  const valueSet = (): string[] => {
    const open = next()
    if (open.type !== 'op' || open.text !== '(') throw new SelectorSyntaxError(open.at, `expected "(" to start the set of values, found ${describe(open)}`)
    if (peek().type === 'op' && (peek() as { text: string }).text === ')')
      throw new SelectorSyntaxError(peek().at, 'the set of values is empty; name at least one')
    const values: string[] = []
    for (;;) {
      values.push(value())
      if (values.length > MAX_SET_VALUES) throw new SelectorSyntaxError(peek().at, `a set holds at most ${MAX_SET_VALUES} values`)
      const t = next()
      if (t.type === 'op' && t.text === ')') break
      if (t.type !== 'op' || t.text !== ',') throw new SelectorSyntaxError(t.at, `expected "," or ")" in the set of values, found ${describe(t)}`)
    }
    return [...new Set(values)]
  }

  for (;;) {
    if (requirements.length >= MAX_REQUIREMENTS) throw new SelectorSyntaxError(peek().at, `a selector holds at most ${MAX_REQUIREMENTS} requirements`)
    const first = peek()
    if (first.type === 'op' && first.text === '!') {
      next()
      requirements.push({ key: key(), operator: 'doesNotExist', values: [] })
    } else {
      const k = key()
      const op = peek()
      if (op.type === 'end' || (op.type === 'op' && op.text === ',')) requirements.push({ key: k, operator: 'exists', values: [] })
      else if (op.type === 'op' && (op.text === '=' || op.text === '==')) {
        next()
        requirements.push({ key: k, operator: 'equals', values: [value()] })
      } else if (op.type === 'op' && op.text === '!=') {
        next()
        requirements.push({ key: k, operator: 'notEquals', values: [value()] })
      } else if (op.type === 'word' && op.text === 'in') {
        next()
        requirements.push({ key: k, operator: 'in', values: valueSet() })
      } else if (op.type === 'word' && op.text === 'notin') {
        next()
        requirements.push({ key: k, operator: 'notIn', values: valueSet() })
      } else if (op.type === 'op' && (op.text === '>' || op.text === '<'))
        throw new SelectorSyntaxError(op.at, `"${op.text}" (integer comparison) is not supported; use =, ==, !=, in, notin, "key" or "!key"`)
      else throw new SelectorSyntaxError(op.at, `expected an operator (=, ==, !=, in, notin), "," or the end after "${k}", found ${describe(op)}`)
    }
    const sep = next()
    if (sep.type === 'end') return requirements
    if (sep.type !== 'op' || sep.text !== ',') throw new SelectorSyntaxError(sep.at, `expected "," between requirements, found ${describe(sep)}`)
  }
}

/** Whether a resource's labels satisfy every requirement of the selector (an empty selector matches all). */
export function matchesLabelSelector(selector: LabelSelector, labels: Readonly<Record<string, string>>): boolean {
  return selector.requirements.every((r) => matchesRequirement(r, labels))
}

function matchesRequirement({ key, operator, values }: LabelRequirement, labels: Readonly<Record<string, string>>): boolean {
  const has = Object.prototype.hasOwnProperty.call(labels, key)
  const value = has ? labels[key] : undefined
  switch (operator) {
    case 'exists':
      return has
    case 'doesNotExist':
      return !has
    case 'equals':
    case 'in':
      return has && values.includes(value!)
    case 'notEquals':
    case 'notIn':
      return !has || !values.includes(value!)
  }
}

/** The selector as text that parses back to it. */
export function formatLabelSelector(selector: LabelSelector): string {
  return selector.requirements
    .map(({ key, operator, values }) => {
      switch (operator) {
        case 'exists':
          return key
        case 'doesNotExist':
          return `!${key}`
        case 'equals':
          return `${key}=${values[0]}`
        case 'notEquals':
          return `${key}!=${values[0]}`
        case 'in':
          return `${key} in (${setText(values)})`
        case 'notIn':
          return `${key} notin (${setText(values)})`
      }
    })
    .join(',')
}

// `()` is an empty set, which the grammar refuses; the set of the empty value alone is `(,)`.
const setText = (values: string[]) => (values.length === 1 && values[0] === '' ? ',' : values.join(','))

/**
 * Whether the selector names something: at least one requirement a resource must carry a label to
 * meet. Prune deletes what matches, and a selector of only `!=`, `notin` and `!key` requirements
 * matches every resource without those labels, which is almost everything.
 */
export function selectsByPresence(selector: LabelSelector): boolean {
  return selector.requirements.some((r) => r.operator === 'equals' || r.operator === 'in' || r.operator === 'exists')
}
