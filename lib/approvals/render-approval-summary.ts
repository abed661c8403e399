// What a held call will do, in the words an approver reads (docs/design/approvals.md#summaries): the
// Tool's summary template over the arguments, else a line built from its input schema (titles,
// formats, declared units), with the arguments that tell requests apart, links the Tool declares and
// what an absent optional argument means. Rendered once, when the call is held, from the arguments
// approvers see (redactFields masked), and kept with the request. Pure; hostile values stay bounded.
import {
  AbsentArgument,
  type ApprovalFieldSpec,
  type ApprovalSpec,
  oneLine,
  renderLinkTemplate,
  renderSummaryTemplate,
  SUMMARY_LINE_CHARS,
  UnitArgument,
} from './approval-template'
import { formatUnit } from './format-units'
import { type ArgumentSummaryEntry, DEFAULT_SUMMARY_ENTRIES, preview, summarizeArguments } from './summarize-arguments'

export interface ApprovalReading {
  /** One line saying what the call will do. */
  line: string
  /** `template`: the Tool's `approval.summary`; `schema`: built from its input schema. */
  source: 'template' | 'schema'
  entries: ArgumentSummaryEntry[]
  /** The tool's description, cut to a few lines. */
  description: string | null
}

export interface ReadingInput {
  args: unknown
  inputSchema: unknown
  description?: string | null
  approval?: ApprovalSpec | null
  /** The paths the tool or its level chose for the queue row (`args.amount`), if any. */
  summaryFields?: readonly string[] | null
}

export const DESCRIPTION_CHARS = 600
/** Object keys and list items a template sees of one argument; deeper levels are previewed. */
const SCOPE_WIDTH = 50
const SCOPE_DEPTH = 4
const SCOPE_STRING_CHARS = 200

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

export function renderApprovalReading(input: ReadingInput): ApprovalReading {
  const args = isRecord(input.args) ? input.args : {}
  const fields = input.approval?.fields ?? {}
  const entries = summaryEntries(args, input, fields)
  let line: string | null = null
  if (input.approval?.summary) line = renderSummaryTemplate(input.approval.summary, templateScope(args, fields))
  const source = line ? 'template' : 'schema'
  if (!line) line = oneLine(entries.map((e) => `${e.label ?? e.field}: ${e.value}`).join(' · ') || 'no arguments', SUMMARY_LINE_CHARS)
  const description = input.description ? oneLine(input.description, DESCRIPTION_CHARS) : null
  return { line, source, entries, description }
}

function summaryEntries(args: Record<string, unknown>, input: ReadingInput, fields: Record<string, ApprovalFieldSpec>): ArgumentSummaryEntry[] {
  const chosen = summarizeArguments(args, input.summaryFields)
  const shown = new Set(chosen.map((e) => e.field))
  // Declared optional arguments the call left out say what leaving them out means ("amount: full refund").
  const absent: ArgumentSummaryEntry[] = []
  for (const [field, declared] of Object.entries(fields))
    if (declared.absent !== undefined && !shown.has(field) && lookup(args, field) === undefined && absent.length < DEFAULT_SUMMARY_ENTRIES)
      absent.push({ field, value: declared.absent, absent: true })
  return [...chosen, ...absent].map((entry) => {
    if (entry.absent) return withLabel(entry, input.inputSchema, fields[entry.field])
    const declared = Object.hasOwn(fields, entry.field) ? fields[entry.field] : undefined
    const raw = lookup(args, entry.field)
    const schema = propertySchema(input.inputSchema, entry.field)
    const formatted = declared?.unit ? formatUnit(raw, declared.unit, declared.currency ?? lookup(args, declared.currencyField ?? '')) : null
    const value = formatted ?? formatByFormat(raw, schema) ?? entry.value
    const href = declared?.link ? renderLinkTemplate(declared.link, boundedScope(args)) : null
    return withLabel({ ...entry, value, ...(href ? { href } : {}) }, input.inputSchema, declared)
  })
}

function withLabel(entry: ArgumentSummaryEntry, inputSchema: unknown, declared: ApprovalFieldSpec | undefined): ArgumentSummaryEntry {
  const title = propertySchema(inputSchema, entry.field)?.title
  const label = declared?.label ?? (typeof title === 'string' && title.trim() ? oneLine(title, 60) : null)
  return label ? { ...entry, label } : entry
}

/** Schema formats an approver reads better than as sent: a date-time in UTC. */
function formatByFormat(value: unknown, schema: Record<string, unknown> | null): string | null {
  if (!schema || typeof value !== 'string' || value.length > 64) return null
  if (schema.format === 'date-time') {
    const at = new Date(value)
    return Number.isNaN(at.getTime()) ? null : `${at.toISOString().slice(0, 16).replace('T', ' ')} UTC`
  }
  return null
}

/** The arguments as a template sees them: bounded, own keys only, with units and absences of the declared fields. */
function templateScope(args: Record<string, unknown>, fields: Record<string, ApprovalFieldSpec>): Record<string, unknown> {
  const scope = boundedScope(args)
  for (const [field, declared] of Object.entries(fields)) {
    const path = field.split('.')
    const raw = lookup(args, field)
    if (raw === undefined) {
      if (declared.absent !== undefined) setPath(scope, path, new AbsentArgument(declared.absent))
      continue
    }
    if (!declared.unit) continue
    const shown = formatUnit(raw, declared.unit, declared.currency ?? lookup(args, declared.currencyField ?? ''))
    if (shown !== null) setPath(scope, path, new UnitArgument(raw, shown))
  }
  return scope
}

export function boundedScope(args: Record<string, unknown>): Record<string, unknown> {
  return bounded(args, 0) as Record<string, unknown>
}

function bounded(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return value.length > SCOPE_STRING_CHARS ? `${value.slice(0, SCOPE_STRING_CHARS)}…` : value
  if (typeof value !== 'object' || value === null) return value
  if (depth >= SCOPE_DEPTH) return preview(value)
  if (Array.isArray(value)) return value.slice(0, SCOPE_WIDTH).map((v) => bounded(v, depth + 1))
  const entries: Array<[string, unknown]> = []
  for (const key in value) {
    if (entries.length >= SCOPE_WIDTH) break
    if (Object.hasOwn(value, key)) entries.push([key, bounded((value as Record<string, unknown>)[key], depth + 1)])
  }
  // fromEntries defines own properties: a `__proto__` key stays a key and never becomes the prototype.
  return Object.fromEntries(entries)
}

function setPath(scope: Record<string, unknown>, path: string[], value: unknown) {
  let node: Record<string, unknown> = scope
  for (const segment of path.slice(0, -1)) {
    const next = Object.hasOwn(node, segment) ? node[segment] : undefined
    if (!isRecord(next)) return
    node = next
  }
  Object.defineProperty(node, path[path.length - 1], { value, enumerable: true, writable: true, configurable: true })
}

function lookup(args: unknown, field: string): unknown {
  if (!field) return undefined
  let node = args
  for (const segment of field.split('.')) {
    if (!isRecord(node) || !Object.hasOwn(node, segment)) return undefined
    node = node[segment]
  }
  return node
}

function propertySchema(schema: unknown, field: string): Record<string, unknown> | null {
  let node = schema
  for (const segment of field.split('.')) {
    if (!isRecord(node) || !isRecord(node.properties) || !Object.hasOwn(node.properties, segment)) return null
    node = node.properties[segment]
  }
  return isRecord(node) ? node : null
}
