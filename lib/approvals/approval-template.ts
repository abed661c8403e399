// The Liquid engine that renders a Tool's approval summary (`spec.approval`), configured so an
// operator's template over an agent's arguments can do nothing but print (docs/design/approvals.md#summaries):
// no file system (no include, render or layout), no loops or assignments, only our filters, own
// properties only, and bounded parse size, render time and memory. Templates are parsed at apply
// (to check them) and once per text at run (cached). Pure.
import { Drop, Liquid, type Template } from 'liquidjs'
import { lookupInputSchema } from '@/lib/policy/check-policy-arguments'
import { type FieldUnit, formatBytes, formatDuration, formatMoney } from './format-units'
import { preview } from './summarize-arguments'

/** Characters of a summary template (and of a link template). */
export const MAX_TEMPLATE_CHARS = 500
/** Characters of a rendered summary line. */
export const SUMMARY_LINE_CHARS = 200
/** Characters of one argument value as a template sees it. */
const SCOPE_STRING_CHARS = 200

/** Tags a summary may use: conditions only (`{% if amount %}…{% else %}full refund{% endif %}`). */
const ALLOWED_TAGS = new Set(['if', 'unless', 'case', 'comment', 'raw', '#'])
export const TEMPLATE_FILTERS = ['money', 'bytes', 'duration', 'default'] as const

/** An optional argument the call left out, which the Tool says how to read ("full refund"). */
export class AbsentArgument extends Drop {
  constructor(readonly text: string) {
    super()
  }
  // Falsy in conditions, like any absent argument.
  override valueOf() {
    return null
  }
}

/** An argument with a declared unit: prints formatted, compares and filters as its raw value. */
export class UnitArgument extends Drop {
  constructor(
    readonly raw: unknown,
    readonly shown: string,
  ) {
    super()
  }
  override valueOf() {
    return this.raw
  }
}

const unwrap = (v: unknown) => (v instanceof UnitArgument ? v.raw : v)

/** What a value prints as: plain text for scalars, a bounded preview for objects and lists. */
export function display(value: unknown): string {
  if (value instanceof AbsentArgument) return value.text
  if (value instanceof UnitArgument) return value.shown
  if (value === undefined || value === null) return ''
  if (typeof value === 'string') return value
  return preview(value)
}

function engine(outputEscape: (value: unknown) => string): Liquid {
  const liquid = new Liquid({
    ownPropertyOnly: true,
    strictFilters: true,
    strictVariables: false,
    // An empty in-memory store: nothing is ever read from disk, whatever a template names.
    templates: {},
    cache: false,
    outputEscape,
    parseLimit: MAX_TEMPLATE_CHARS,
    renderLimit: 100,
    memoryLimit: 100_000,
  })
  for (const name of Object.keys(liquid.tags)) if (!ALLOWED_TAGS.has(name)) delete liquid.tags[name]
  for (const name of Object.keys(liquid.filters)) liquid.unregisterFilter(name)
  const orShown = (value: unknown, formatted: string | null) => formatted ?? display(value)
  liquid.registerFilter('money', (v: unknown, currency: unknown) => (v instanceof AbsentArgument ? v : orShown(v, formatMoney(unwrap(v), unwrap(currency)))))
  liquid.registerFilter('bytes', (v: unknown) => (v instanceof AbsentArgument ? v : orShown(v, formatBytes(unwrap(v)))))
  liquid.registerFilter('duration', (v: unknown, unit: unknown) =>
    v instanceof AbsentArgument ? v : orShown(v, formatDuration(unwrap(v), unit === 'ms' || unit === 'milliseconds' ? 'milliseconds' : 'seconds')),
  )
  liquid.registerFilter('default', (v: unknown, text: unknown) => {
    const raw = unwrap(v)
    const missing = v instanceof AbsentArgument || raw === undefined || raw === null || raw === ''
    return missing ? display(text).slice(0, SCOPE_STRING_CHARS) : v
  })
  return liquid
}

const summaryEngine = engine(display)
// Link values are path or query parts: each is encoded, so an argument cannot change the host or path.
const linkEngine = engine((value) => encodeURIComponent(display(value)))

/** One line: control characters and runs of spaces are one space, cut at `SUMMARY_LINE_CHARS`. */
export function oneLine(text: string, budget = SUMMARY_LINE_CHARS): string {
  const flat = text
    .replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, ' ')
    .replace(/\s{2,}/g, ' ')
    .trim()
  return flat.length > budget ? `${flat.slice(0, budget - 1)}…` : flat
}

// Parsed templates by text, so each Tool's template is parsed once however many calls it gets.
const parsed = new Map<string, Template[]>()
const MAX_CACHED = 1000

function parseCached(liquid: Liquid, kind: 'summary' | 'link', text: string): Template[] {
  const key = `${kind}\u0000${text}`
  let templates = parsed.get(key)
  if (!templates) {
    templates = liquid.parse(text)
    if (parsed.size >= MAX_CACHED) parsed.clear()
    parsed.set(key, templates)
  }
  return templates
}

/** The summary line, or null when the template cannot be rendered (a limit was hit): the caller falls back to the default. */
export function renderSummaryTemplate(template: string, scope: Record<string, unknown>): string | null {
  try {
    return oneLine(String(summaryEngine.renderSync(parseCached(summaryEngine, 'summary', template), scope)))
  } catch {
    return null
  }
}

/** The link, only when it renders to an http(s) URL (values are URL-encoded); null otherwise. */
export function renderLinkTemplate(template: string, scope: Record<string, unknown>): string | null {
  try {
    const text = String(linkEngine.renderSync(parseCached(linkEngine, 'link', template), scope)).trim()
    if (text.length > 2048) return null
    const url = new URL(text)
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null
  } catch {
    return null
  }
}

// ---- Checks at apply -------------------------------------------------------------------------

export interface ApprovalFieldSpec {
  label?: string
  unit?: FieldUnit
  /** ISO 4217 code of a `minor_currency` amount, when fixed. */
  currency?: string
  /** The argument that holds the currency code of a `minor_currency` amount. */
  currencyField?: string
  /** `https://…/tickets/{{ ticketId }}`: the argument shown as a link. */
  link?: string
  /** What it means when the call leaves this argument out ("full refund"). */
  absent?: string
}

export interface ApprovalSpec {
  summary?: string
  fields?: Record<string, ApprovalFieldSpec>
}

export interface ApprovalSpecProblem {
  path: Array<string>
  rule: string
  message: string
}

/** A link template must name its scheme and host literally: arguments fill in the rest, never where it points. */
const LITERAL_ORIGIN = /^https?:\/\/[A-Za-z0-9.-]+(:\d+)?(\/|\?|#|$)/

/** Problems of `spec.approval` against the tool's input schema: syntax, unknown arguments, links that could point anywhere. */
export function approvalSpecProblems(spec: ApprovalSpec, inputSchema: unknown): ApprovalSpecProblem[] {
  const problems: ApprovalSpecProblem[] = []
  const checkTemplate = (liquid: Liquid, text: string, path: string[]) => {
    let templates: Template[]
    try {
      templates = liquid.parse(text)
    } catch (e) {
      problems.push({ path, rule: 'template', message: `is not a valid summary template: ${liquidMessage(e)}` })
      return
    }
    const analysis = liquid.analyzeSync(templates, { partials: false })
    for (const uses of Object.values(analysis.globals)) {
      for (const use of uses) {
        const segments = use.segments.filter((s): s is string | number => typeof s !== 'object').map(String)
        const found = lookupInputSchema(inputSchema, segments)
        if (found.kind === 'absent')
          problems.push({
            path,
            rule: 'template-unknown-argument',
            message: `at ${use.location.row}:${use.location.col}: ${segments.join('.')} is not an argument of the tool (it has: ${found.known.join(', ') || 'none'})`,
          })
      }
    }
  }
  // Read defensively: the spec's own shape may be wrong too (its errors come in the same answer).
  if (typeof spec.summary === 'string') checkTemplate(summaryEngine, spec.summary, ['summary'])
  const fields = typeof spec.fields === 'object' && spec.fields !== null ? spec.fields : {}
  for (const [field, declared] of Object.entries(fields)) {
    if (typeof declared !== 'object' || declared === null) continue
    const at = ['fields', field]
    const found = lookupInputSchema(inputSchema, field.split('.'))
    if (found.kind === 'absent')
      problems.push({ path: at, rule: 'unknown-argument', message: `${field} is not an argument of the tool (it has: ${found.known.join(', ') || 'none'})` })
    if (typeof declared.currencyField === 'string') {
      const currency = lookupInputSchema(inputSchema, declared.currencyField.split('.'))
      if (currency.kind === 'absent')
        problems.push({ path: [...at, 'currencyField'], rule: 'unknown-argument', message: `${declared.currencyField} is not an argument of the tool` })
    }
    if (declared.unit === 'minor_currency' && (declared.currency === undefined) === (declared.currencyField === undefined))
      problems.push({
        path: [...at, 'unit'],
        rule: 'currency',
        message: 'a minor_currency amount needs exactly one of currency (a code) or currencyField (the argument)',
      })
    if (declared.unit !== 'minor_currency' && (declared.currency !== undefined || declared.currencyField !== undefined))
      problems.push({ path: [...at, 'currency'], rule: 'not-allowed', message: 'is only allowed when unit is "minor_currency"' })
    if (typeof declared.link === 'string') {
      if (!LITERAL_ORIGIN.test(declared.link))
        problems.push({
          path: [...at, 'link'],
          rule: 'link',
          message: 'must start with a literal http(s) scheme and host ("https://support.example.com/tickets/{{ ticketId }}")',
        })
      else checkTemplate(linkEngine, declared.link, [...at, 'link'])
    }
  }
  return problems
}

function liquidMessage(e: unknown): string {
  const message = e instanceof Error ? e.message : String(e)
  // "undefined filter: nope, line:1, col:4" → "at 1:4: nope is not a filter (…)"
  const at = /, line:(\d+), col:(\d+)$/.exec(message)
  const body = (at ? message.slice(0, at.index) : message).replace(/^undefined filter: (.*)$/, `$1 is not a filter (use ${TEMPLATE_FILTERS.join(', ')})`)
  return (at ? `at ${at[1]}:${at[2]}: ${body}` : body).slice(0, 300)
}
