// Text PostgreSQL cannot hold: NUL (U+0000) in text and jsonb, and unpaired UTF-16 surrogates (JSON
// can carry "\ud800"; jsonb refuses it). Input that names things (ids, filters, manifests, keys) is
// refused when it holds such text (`unstorableFields`, rule STORABLE_TEXT_RULE); what a record must
// keep whatever it holds (call arguments, results, error messages) is stored in a safe form
// (`storableText`/`storableJson`: NUL as U+2400 "␀", a lone surrogate as U+FFFD). Pure.

export const STORABLE_TEXT_RULE = 'storable-text'
export const STORABLE_TEXT_MESSAGE = 'must not contain NUL characters (U+0000) or unpaired surrogates'

export function isStorableText(text: string): boolean {
  return !text.includes('\u0000') && text.isWellFormed()
}

export function storableText(text: string): string {
  return isStorableText(text) ? text : text.replaceAll('\u0000', '\u2400').toWellFormed()
}

/** A copy of a JSON value with every string and key storable (the value itself when it already is). */
export function storableJson<T>(value: T): T {
  return (needsRewrite(value, 0) ? rewrite(value) : value) as T
}

const MAX_DEPTH = 256

function needsRewrite(value: unknown, depth: number): boolean {
  if (typeof value === 'string') return !isStorableText(value)
  if (typeof value !== 'object' || value === null || depth > MAX_DEPTH) return false
  if (Array.isArray(value)) return value.some((v) => needsRewrite(v, depth + 1))
  for (const [key, child] of Object.entries(value)) if (!isStorableText(key) || needsRewrite(child, depth + 1)) return true
  return false
}

function rewrite(value: unknown): unknown {
  if (typeof value === 'string') return storableText(value)
  if (typeof value !== 'object' || value === null) return value
  if (Array.isArray(value)) return value.map(rewrite)
  return Object.fromEntries(Object.entries(value).map(([key, child]) => [storableText(key), rewrite(child)]))
}

/**
 * Where a JSON value holds unstorable text, as field paths (`calls[0].errorMessage`, `(key) a.b` for
 * a key); `opaque` paths (`arguments`, `calls[*].args`) are skipped: they are stored in a safe form.
 */
export function unstorableFields(value: unknown, opaque: readonly string[] = [], limit = 20): string[] {
  const found: string[] = []
  const skip = opaque.map((p) => new RegExp(`^${p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replaceAll('\\[\\*\\]', '\\[\\d+\\]')}$`))
  const walk = (v: unknown, path: string, depth: number) => {
    if (found.length >= limit || depth > MAX_DEPTH) return
    if (path && skip.some((re) => re.test(path))) return
    if (typeof v === 'string') {
      if (!isStorableText(v)) found.push(path || '(root)')
      return
    }
    if (typeof v !== 'object' || v === null) return
    if (Array.isArray(v)) return v.forEach((item, i) => walk(item, `${path}[${i}]`, depth + 1))
    for (const [key, child] of Object.entries(v)) {
      const childPath = path ? `${path}.${key}` : key
      if (!isStorableText(key)) found.push(`(key) ${storableText(childPath)}`)
      walk(child, storableText(childPath), depth + 1)
    }
  }
  walk(value, '', 0)
  return found
}
