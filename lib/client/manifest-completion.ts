// Schema-aware completion for the Apply editor: which keys and values fit where the cursor is, from
// the JSON Schema of each kind's metadata and spec (made from the zod schemas Apply validates with,
// lib/manifests/manifest-json-schemas.ts). Block-style YAML is read line by line, by indentation, so
// it works on a manifest that is half written and does not parse yet. Pure.

import type { KindSchema } from '@/lib/manifests/manifest-json-schemas'

export type { KindSchema }

export interface CompletionItem {
  label: string
  /** The text that replaces what was typed of it. */
  apply: string
  type: 'property' | 'enum' | 'keyword'
  detail?: string
}

export interface Completions {
  /** Offset where the replaced text starts. */
  from: number
  items: CompletionItem[]
}

type Schema = Record<string, unknown>
type Segment = string | typeof ITEM

/** A path segment for "an element of this list". */
const ITEM = Symbol('item')

interface LineInfo {
  /** Where its key (or its list item's key) starts; -1 for lines without one. */
  indent: number
  /** The mapping key on the line, if any. */
  key: string | null
  /** The path of the mapping the key is in. */
  path: Segment[]
}

const KEY_LINE = /^(\s*)((?:- +)*)([A-Za-z0-9_.\-/]+|"[^"]*"|'[^']*'):(?:\s+(.*))?$/
const ITEM_LINE = /^(\s*)- *(.*)$/

const unquote = (key: string) => (/^["'].*["']$/.test(key) ? key.slice(1, -1) : key)
const isBlank = (line: string) => /^\s*(#.*)?$/.test(line)
/** A value that opens a block below (nothing, a comment, an anchor or a block scalar indicator) rather than a scalar or flow collection. */
const opensBlock = (value: string | undefined) => value === undefined || /^(#.*|&\S+\s*|[|>][-+0-9]*\s*(#.*)?)?$/.test(value.trim())

/**
 * Reads a document's lines (block style) into the path of each key, keeping a stack of the open
 * mappings and lists by indentation. `upTo` stops before that line.
 */
function readLines(lines: string[], upTo = lines.length): { infos: LineInfo[]; stack: Array<{ indent: number; segment: Segment }> } {
  const stack: Array<{ indent: number; segment: Segment }> = []
  const infos: LineInfo[] = []
  for (let i = 0; i < upTo; i++) {
    const line = lines[i]
    if (isBlank(line)) {
      infos.push({ indent: -1, key: null, path: [] })
      continue
    }
    let indent = line.length - line.trimStart().length
    let rest = line.slice(indent)
    // Each "- " opens an item of a list at its column; what follows sits two columns further in.
    while (ITEM_LINE.test(rest) && rest.startsWith('-') && (rest.length === 1 || rest[1] === ' ')) {
      while (stack.length && stack[stack.length - 1].indent > indent) stack.pop()
      if (stack.length && stack[stack.length - 1].indent === indent && stack[stack.length - 1].segment === ITEM) stack.pop()
      stack.push({ indent, segment: ITEM })
      const after = rest.slice(1)
      const spaces = after.length - after.trimStart().length
      indent += 1 + spaces
      rest = after.trimStart()
      if (rest === '') break
    }
    const match = KEY_LINE.exec(rest)
    if (!match) {
      infos.push({ indent: -1, key: null, path: stack.map((s) => s.segment) })
      continue
    }
    while (stack.length && stack[stack.length - 1].indent >= indent && !(stack[stack.length - 1].segment === ITEM && stack[stack.length - 1].indent < indent))
      stack.pop()
    const key = unquote(match[3])
    infos.push({ indent, key, path: stack.map((s) => s.segment) })
    if (opensBlock(match[4])) stack.push({ indent, segment: key })
  }
  return { infos, stack }
}

function isObjectSchema(s: Schema | undefined): s is Schema {
  return !!s && typeof s === 'object'
}

/** The schema one step down: a property, a list's items, or a map's values. */
function step(schema: Schema | undefined, segment: Segment): Schema | undefined {
  if (!isObjectSchema(schema)) return undefined
  for (const alt of (schema.anyOf ?? schema.oneOf ?? []) as Schema[]) {
    const found = step(alt, segment)
    if (found) return found
  }
  if (segment === ITEM) return isObjectSchema(schema.items as Schema) ? (schema.items as Schema) : undefined
  const properties = schema.properties as Record<string, Schema> | undefined
  if (properties?.[segment]) return properties[segment]
  return isObjectSchema(schema.additionalProperties as Schema) ? (schema.additionalProperties as Schema) : undefined
}

function typeOf(schema: Schema): string {
  if (Array.isArray(schema.enum)) return schema.enum.length <= 4 ? schema.enum.map((v) => JSON.stringify(v)).join(' | ') : `one of ${schema.enum.length}`
  if (schema.type === 'array')
    return `list${isObjectSchema(schema.items as Schema) && (schema.items as Schema).type ? ` of ${typeOf(schema.items as Schema)}` : ''}`
  if (typeof schema.type === 'string') return schema.type
  if (Array.isArray(schema.anyOf)) return (schema.anyOf as Schema[]).map(typeOf).join(' | ')
  return 'any'
}

function valuesOf(schema: Schema | undefined): string[] {
  if (!isObjectSchema(schema)) return []
  if (Array.isArray(schema.enum)) return schema.enum.map((v) => (typeof v === 'string' ? v : JSON.stringify(v)))
  if (schema.type === 'boolean') return ['true', 'false']
  for (const alt of (schema.anyOf ?? schema.oneOf ?? []) as Schema[]) {
    const values = valuesOf(alt)
    if (values.length) return values
  }
  return []
}

function documentBounds(lines: string[], lineIndex: number): [number, number] {
  let start = lineIndex
  while (start > 0 && !/^---(\s|$)/.test(lines[start - 1])) start--
  let end = lineIndex + 1
  while (end < lines.length && !/^---(\s|$)/.test(lines[end])) end++
  return [start, end]
}

function rootSchema(docLines: string[], kinds: readonly KindSchema[]): Schema {
  const kindLine = docLines.map((l) => /^kind:\s*["']?([A-Za-z]+)/.exec(l)).find(Boolean)
  const named = kindLine ? kinds.find((k) => k.kind === kindLine[1] || k.aliases.includes(kindLine[1])) : undefined
  const apiVersions = named ? [...named.apiVersions] : [...new Set(kinds.flatMap((k) => k.apiVersions))]
  return {
    type: 'object',
    required: ['apiVersion', 'kind', 'metadata', 'spec'],
    properties: {
      apiVersion: { type: 'string', enum: apiVersions },
      kind: { type: 'string', enum: [...kinds.map((k) => k.kind), ...kinds.flatMap((k) => k.aliases)] },
      metadata: named?.metadata ?? {
        type: 'object',
        properties: { name: { type: 'string' }, namespace: { type: 'string' }, labels: { type: 'object' }, annotations: { type: 'object' } },
      },
      spec: named?.spec ?? { type: 'object' },
    },
  }
}

function schemaAt(root: Schema, path: Segment[]): Schema | undefined {
  let schema: Schema | undefined = root
  for (const segment of path) schema = step(schema, segment)
  return schema
}

const samePath = (a: Segment[], b: Segment[]) => a.length === b.length && a.every((s, i) => s === b[i])

/** The completions at `offset` in `text`, or null where none fit (inside a value of free text, a flow collection…). */
export function completeManifest(text: string, offset: number, kinds: readonly KindSchema[]): Completions | null {
  const before = text.slice(0, offset)
  const lineIndex = before.split('\n').length - 1
  const lineStart = before.lastIndexOf('\n') + 1
  const lines = text.split('\n')
  const [start, end] = documentBounds(lines, lineIndex)
  const docLines = lines.slice(start, end)
  const typed = text.slice(lineStart, offset)
  const root = rootSchema(docLines, kinds)

  // The cursor's line as far as the cursor: a key being typed, or a value after "key: ", or a list item.
  const current = [...docLines.slice(0, lineIndex - start), typed]
  const { infos } = readLines(current)
  const here = infos[infos.length - 1]

  const valueMatch = /^(\s*)((?:- +)*)([A-Za-z0-9_.\-/]+|"[^"]*"|'[^']*'):\s+([^\s#{}[\],]*)$/.exec(typed)
  if (valueMatch && here.key !== null) {
    const partial = valueMatch[4]
    const values = valuesOf(step(schemaAt(root, here.path), here.key))
    const items = values.filter((v) => v.startsWith(partial)).map((v): CompletionItem => ({ label: v, apply: v, type: 'enum' }))
    return items.length ? { from: offset - partial.length, items } : null
  }

  const keyMatch = /^(\s*)((?:- +)*)([A-Za-z0-9_.\-/]*)$/.exec(typed)
  if (!keyMatch) return null
  const partial = keyMatch[3]
  const inItem = keyMatch[2] !== ''
  // Where the key would go: its path is the mapping open above it at a smaller indentation.
  const probe = readLines([...current.slice(0, -1), `${typed}${partial === '' ? 'x' : ''}:`])
  const info = probe.infos[probe.infos.length - 1]
  const parent = schemaAt(root, info.path)
  if (!parent) return null

  const items: CompletionItem[] = []
  // A list of plain values: the item being typed is a value, not a key.
  const itemValues = inItem && info.path[info.path.length - 1] === ITEM ? valuesOf(parent) : []
  for (const v of itemValues) if (v.startsWith(partial)) items.push({ label: v, apply: v, type: 'enum' })

  const properties = (parent.properties ?? {}) as Record<string, Schema>
  if (Object.keys(properties).length > 0) {
    // Keys already there (above and below the cursor) are not offered again.
    const whole = readLines([...current.slice(0, -1), ...docLines.slice(lineIndex - start + 1)])
    const taken = new Set(whole.infos.filter((l) => l.key !== null && l.indent === info.indent && samePath(l.path, info.path)).map((l) => l.key))
    const required = new Set((parent.required ?? []) as string[])
    for (const [key, schema] of Object.entries(properties)) {
      if (taken.has(key) || !key.startsWith(partial)) continue
      items.push({ label: key, apply: `${key}: `, type: 'property', detail: `${typeOf(schema)}${required.has(key) ? ', required' : ''}` })
    }
  }
  return items.length ? { from: offset - partial.length, items } : null
}
