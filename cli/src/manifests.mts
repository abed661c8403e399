// Manifests as the CLI reads them: files, directories (-R: and below) or stdin, YAML with any number
// of documents or JSON, `kind: List` documents standing for their items. Each document keeps where
// it came from, so a problem the API names (document index and field path) is shown at its file and
// line.
import fs from 'node:fs'
import path from 'node:path'
import { type Document, isMap, isSeq, LineCounter, type Node, parseAllDocuments } from 'yaml'

export class ManifestError extends Error {}

export interface SourceDocument {
  /** The file as given (`<stdin>` for -). */
  file: string
  /** The YAML document it is, or is an item of. */
  yaml: Document
  /** Where in that YAML document it sits: [] or ['items', i] for an item of a List. */
  itemPath: (string | number)[]
  lines: LineCounter
  value: unknown
}

const MANIFEST_EXTENSIONS = new Set(['.yaml', '.yml', '.json'])

/** The files `-f` names: a file as it is, a directory's manifests (sorted; below it too with -R), `-` for stdin. */
export function manifestFiles(paths: string[], recursive: boolean): string[] {
  const files: string[] = []
  for (const p of paths) {
    if (p === '-') {
      files.push('-')
      continue
    }
    let stat: fs.Stats
    try {
      stat = fs.statSync(p)
    } catch {
      throw new ManifestError(`${p}: no such file or directory`)
    }
    if (!stat.isDirectory()) {
      files.push(p)
      continue
    }
    const walk = (dir: string) => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
        const full = path.join(dir, entry.name)
        if (entry.isDirectory()) {
          if (recursive) walk(full)
        } else if (MANIFEST_EXTENSIONS.has(path.extname(entry.name).toLowerCase())) files.push(full)
      }
    }
    walk(p)
  }
  if (files.length === 0)
    throw new ManifestError(`no manifests in ${paths.join(', ')} (files ending .yaml, .yml or .json${recursive ? '' : '; -R reads subdirectories'})`)
  return files
}

export function readManifests(paths: string[], recursive: boolean): SourceDocument[] {
  const documents: SourceDocument[] = []
  for (const file of manifestFiles(paths, recursive)) {
    const text = file === '-' ? fs.readFileSync(0, 'utf8') : fs.readFileSync(file, 'utf8')
    documents.push(...parseManifestText(file === '-' ? '<stdin>' : file, text))
  }
  if (documents.length === 0) throw new ManifestError(`${paths.join(', ')}: no documents`)
  return documents
}

export function parseManifestText(file: string, text: string): SourceDocument[] {
  const lines = new LineCounter()
  // JSON is YAML; the same limits as the server's parser (core schema, unique keys, few aliases).
  const parsed = parseAllDocuments(text, { lineCounter: lines, uniqueKeys: true, schema: 'core', prettyErrors: false })
  const docs = Array.isArray(parsed) ? parsed : [parsed]
  const out: SourceDocument[] = []
  for (const yaml of docs) {
    const first = yaml.errors[0]
    if (first) throw new ManifestError(`${file}:${lines.linePos(first.pos[0]).line}: ${first.message.split('\n')[0]}`)
    let value: unknown
    try {
      value = yaml.toJS({ maxAliasCount: 100 })
    } catch (e) {
      throw new ManifestError(`${file}: ${(e as Error).message}`)
    }
    if (value === null || value === undefined) continue
    const items = listItems(value)
    if (items) items.forEach((item, i) => out.push({ file, yaml, itemPath: ['items', i], lines, value: item }))
    else out.push({ file, yaml, itemPath: [], lines, value })
  }
  return out
}

/** A Kubernetes List's items, or a page's (`{items, nextCursor}`, what a list route answers). */
function listItems(value: unknown): unknown[] | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null
  const v = value as { kind?: unknown; items?: unknown }
  if (!Array.isArray(v.items)) return null
  if (v.kind === 'List' || Object.keys(v).every((k) => k === 'items' || k === 'nextCursor')) return v.items
  return null
}

/** `file:line` of a field of a document (its start when the field cannot be found). */
export function whereIs(source: SourceDocument, field?: string): string {
  const root = source.yaml.getIn(source.itemPath, true) as Node | undefined
  const node = (field && root ? findField(root, fieldSegments(field)) : undefined) ?? root ?? source.yaml.contents
  const offset = node?.range?.[0]
  return offset === undefined ? source.file : `${source.file}:${source.lines.linePos(offset).line}`
}

/** `spec.a[1].b` or `metadata.labels["a.b/c"]` as raw segments: quoted keys whole, dotted ones to be joined when a key holds dots. */
function fieldSegments(field: string): (string | number | { quoted: string })[] {
  const segments: (string | number | { quoted: string })[] = []
  const pattern = /\[(\d+)\]|\["((?:[^"\\]|\\.)*)"\]|([^.[\]]+)/g
  for (const match of field.matchAll(pattern)) {
    if (match[1] !== undefined) segments.push(Number(match[1]))
    else if (match[2] !== undefined) segments.push({ quoted: JSON.parse(`"${match[2]}"`) as string })
    else segments.push(match[3])
  }
  return segments
}

function findField(node: Node, segments: (string | number | { quoted: string })[]): Node | undefined {
  let current: Node = node
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i]
    if (typeof segment === 'number') {
      if (!isSeq(current)) return current
      const item = current.items[segment] as Node | undefined
      if (!item) return current
      current = item
      continue
    }
    if (!isMap(current)) return current
    // A key may hold dots (a tool id in toggles): try the longest run of segments that names one.
    let found: { node: Node; used: number } | undefined
    const keyAt = (k: number) => (typeof segments[k] === 'object' ? (segments[k] as { quoted: string }).quoted : String(segments[k]))
    for (let j = segments.length; j > i && !found; j--) {
      if (segments.slice(i, j).some((s) => typeof s === 'number')) continue
      const key = Array.from({ length: j - i }, (_, k) => keyAt(i + k)).join('.')
      const pair = current.items.find((p) => (p.key as { value?: unknown } | null)?.value === key)
      if (pair) found = { node: (pair.value as Node | null) ?? (pair.key as Node), used: j - i }
    }
    if (!found) return current
    current = found.node
    i += found.used - 1
  }
  return current
}
