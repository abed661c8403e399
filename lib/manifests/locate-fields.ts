// Where in the manifest's text each problem is: a line and column for a document index and field path
// (`spec.safety.allowedAgents[1]`), found in the YAML parser's node tree, for JSON too (a JSON text
// is YAML, so the same parser gives its positions). A field that is missing points at its nearest
// present parent (`spec:` for a missing `spec.endpoint`); an unknown or repeated key at the key
// itself; anything else at the value. Pure.
import { type Document, isMap, isPair, isScalar, isSeq, LineCounter, type Node, parseDocument } from 'yaml'
import type { FieldError } from '@/lib/errors/app-error'
import { PAGE_FIELDS } from './list-envelopes'

export interface TextPosition {
  /** 1-based. */
  line: number
  /** 1-based, in UTF-16 code units (as editors count). */
  column: number
}

type Segment = string | number

/** `spec.toggles.github.create_issue`, `spec.tools[0]` → segments; dots inside keys are resolved against the tree. */
export function fieldSegments(field: string): Segment[] {
  const out: Segment[] = []
  for (const part of field.match(/\[\d+\]|[^.[\]]+/g) ?? []) out.push(part.startsWith('[') ? Number(part.slice(1, -1)) : part)
  return out
}

const KEY_RULES = new Set(['unknown-field', 'duplicate-key'])

/** The node a field error is about, or the nearest node that is there. */
function targetOf(root: Node | null, field: string, rule: string): Node | null {
  if (!root || field.startsWith('(')) return root
  const segments = fieldSegments(field)
  let node: Node | null = root
  let key: Node | null = null
  let i = 0
  while (i < segments.length && node) {
    const current: Node = node
    if (isMap(current)) {
      // The longest run of segments that is one key: "github.create_issue" is one toggle key.
      let found: { next: Node | null; key: Node; end: number } | null = null
      for (let end = segments.length; end > i && !found; end--) {
        const wanted = segments.slice(i, end).join('.')
        const pair = current.items.find((p) => isPair(p) && isScalar(p.key) && String(p.key.value) === wanted)
        if (pair) found = { next: (pair.value as Node | null) ?? null, key: pair.key as Node, end }
      }
      if (!found) break
      key = found.key
      node = found.next
      i = found.end
    } else if (isSeq(current) && typeof segments[i] === 'number') {
      const item = current.items[segments[i] as number] as Node | undefined
      if (!item) break
      key = null
      node = item
      i++
    } else break
  }
  if (i === segments.length) return KEY_RULES.has(rule) ? (key ?? node) : (node ?? key)
  // Missing: the key of the nearest parent there is, else the parent itself.
  return key ?? node
}

/**
 * The documents' root nodes, numbered as the manifest's parser numbers them (parse-manifest.ts):
 * YAML documents in order, empty ones left out; for JSON the elements of a top-level array, else the
 * one object; a List's or a page's items in place of the envelope (list-envelopes.ts).
 */
export interface ManifestTree {
  roots: Array<Node | null>
  lineCounter: LineCounter
}

export function yamlTree(documents: Document.Parsed[], lineCounter: LineCounter): ManifestTree {
  const roots: Array<Node | null> = []
  for (const doc of documents) {
    const contents = doc.contents as Node | null
    const empty = contents === null || (isScalar(contents) && contents.value === null)
    if (doc.errors.length === 0 && empty) continue
    if (doc.errors.length > 0) roots.push(contents)
    else roots.push(...envelopeItems(contents))
  }
  return { roots, lineCounter }
}

export function jsonTree(text: string): ManifestTree {
  const lineCounter = new LineCounter()
  // Keys given twice are reported by the manifest's own check; here the first one is found.
  const root = parseDocument(text, { lineCounter, uniqueKeys: false, schema: 'core' }).contents as Node | null
  const values = isSeq(root) ? (root.items as Node[]) : [root]
  return { roots: values.flatMap(envelopeItems), lineCounter }
}

/** The item nodes of a List or a page, as the parser expands them; any other node stands for itself. */
function envelopeItems(node: Node | null): Array<Node | null> {
  if (!isMap(node)) return [node]
  const valueOf = (key: string) => node.items.find((p) => isScalar(p.key) && p.key.value === key)?.value as Node | null | undefined
  const items = valueOf('items')
  if (!isSeq(items)) return [node]
  const kind = valueOf('kind')
  const list = isScalar(kind) && kind.value === 'List'
  const page = node.items.every((p) => isScalar(p.key) && PAGE_FIELDS.has(String(p.key.value)))
  return list || page ? (items.items as Node[]) : [node]
}

/** The position of one error, or null when the text has no such document. */
export function positionOf(tree: ManifestTree, error: FieldError): TextPosition | null {
  if (error.field === '(manifest)') return { line: 1, column: 1 }
  const index = error.document ?? (tree.roots.length === 1 ? 0 : undefined)
  if (index === undefined || index >= tree.roots.length) return null
  const target = targetOf(tree.roots[index], error.field, error.rule)
  if (!target?.range) return null
  const { line, col } = tree.lineCounter.linePos(target.range[0])
  return { line, column: col }
}

/** Every error with its line and column (those that already have one keep it), in text order. */
export function locateErrors(tree: ManifestTree, errors: FieldError[]): FieldError[] {
  const located = errors.map((e) => (e.line !== undefined ? e : { ...e, ...positionOf(tree, e) }))
  // Text order, so a reader (and an editor's list) goes top to bottom; errors without a place first.
  return located
    .map((e, i) => ({ e, i }))
    .sort((a, b) => (a.e.line ?? 0) - (b.e.line ?? 0) || (a.e.column ?? 0) - (b.e.column ?? 0) || a.i - b.i)
    .map(({ e }) => e)
}
