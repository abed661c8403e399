// The few arguments an approval row shows, pure. Arguments come from agents and
// are as hostile as anything else: every value is previewed within a fixed budget, however large or
// deep it is, and only own properties are read (`__proto__`, `constructor` are just names).

export interface ArgumentSummaryEntry {
  /** The argument's path without `args.`: `amount`, `customer.id`. */
  field: string
  /** A short, single-line rendering of its value (in its unit, when the Tool declares one). */
  value: string
  /** The argument's title in the tool's input schema, or the label its `approval.fields` give it. */
  label?: string
  /** An http(s) link the Tool declares for it (`approval.fields.<name>.link`), values URL-encoded. */
  href?: string
  /** The call left it out: `value` says what that means ("full refund"). */
  absent?: boolean
}

/** Entries shown when no tool or level names its own. */
export const DEFAULT_SUMMARY_ENTRIES = 4
/** Characters of one value before it is cut with "…". */
export const SUMMARY_VALUE_CHARS = 80

/**
 * `fields`: paths like `args.amount`; absent fields are left out. Without fields: the first
 * `DEFAULT_SUMMARY_ENTRIES` top-level arguments, scalars before objects and lists.
 */
export function summarizeArguments(args: unknown, fields: readonly string[] | null | undefined): ArgumentSummaryEntry[] {
  if (!isRecord(args)) return []
  if (fields && fields.length > 0) {
    const out: ArgumentSummaryEntry[] = []
    for (const path of fields) {
      const segments = path.replace(/^args\./, '').split('.')
      const found = lookup(args, segments)
      if (found.present) out.push({ field: segments.join('.'), value: preview(found.value) })
    }
    return out
  }
  const keys = Object.keys(args)
  const scalarFirst = [...keys.filter((k) => !isComposite(args[k])), ...keys.filter((k) => isComposite(args[k]))]
  return scalarFirst.slice(0, DEFAULT_SUMMARY_ENTRIES).map((k) => ({ field: k, value: preview(args[k]) }))
}

function lookup(value: unknown, segments: string[]): { present: boolean; value?: unknown } {
  let current = value
  for (const segment of segments) {
    if (Array.isArray(current) && /^\d+$/.test(segment)) {
      const index = Number(segment)
      if (index >= current.length) return { present: false }
      current = current[index]
    } else if (isRecord(current) && Object.prototype.hasOwnProperty.call(current, segment)) {
      current = current[segment]
    } else return { present: false }
  }
  return { present: true, value: current }
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)
const isComposite = (v: unknown) => typeof v === 'object' && v !== null

/** JSON-like text of `value`, at most `SUMMARY_VALUE_CHARS` characters, built without serialising more than that. */
export function preview(value: unknown, budget = SUMMARY_VALUE_CHARS): string {
  const out: string[] = []
  let used = 0
  let cut = false
  const emit = (text: string) => {
    if (cut) return
    if (used + text.length > budget) {
      out.push(text.slice(0, Math.max(0, budget - used)))
      used = budget
      cut = true
      return
    }
    out.push(text)
    used += text.length
  }
  const walk = (v: unknown, topLevel: boolean) => {
    if (cut) return
    if (typeof v === 'string') return emit(topLevel ? v : JSON.stringify(v.length > budget ? v.slice(0, budget) : v))
    if (v === null || typeof v === 'number' || typeof v === 'boolean') return emit(String(v))
    if (Array.isArray(v)) {
      emit('[')
      for (let i = 0; i < v.length && !cut; i++) {
        if (i > 0) emit(', ')
        walk(v[i], false)
      }
      return emit(']')
    }
    if (isRecord(v)) {
      emit('{')
      let first = true
      for (const key in v) {
        if (cut) break
        if (!Object.prototype.hasOwnProperty.call(v, key)) continue
        if (!first) emit(', ')
        first = false
        emit(`${key.length > budget ? key.slice(0, budget) : key}: `)
        walk(v[key], false)
      }
      return emit('}')
    }
    emit(String(v))
  }
  walk(value, true)
  // One line: newlines and other control characters would break the row.
  const text = out.join('').replace(/[\u0000-\u001f\u007f]+/g, ' ')
  return cut ? `${text}…` : text
}
