// Multi-document YAML or JSON in, plain objects out, with every syntax error located. The YAML parser
// is bounded against hostile input: aliases are capped (no "billion laughs"), only the core schema
// is understood (no custom tags that construct objects), and the number of documents and the depth
// of nesting are checked before any parser runs (lib/manifests/manifest-limits.ts). A key given twice
// in one mapping is refused in JSON as in YAML, naming the key. A Kubernetes `List` (what
// `kubectl get -o yaml` emits) and a page of a list route (`{items, nextCursor}`) stand for their items.
import { parseAllDocuments } from 'yaml'
import type { FieldError } from '@/lib/errors/app-error'
import { checkManifestShape, duplicateJsonKey, MAX_DOCUMENTS } from './manifest-limits'

export { MAX_DOCUMENTS } from './manifest-limits'

export interface ParsedManifest {
  documents: unknown[]
  errors: FieldError[]
}

export function parseManifest(text: string): ParsedManifest {
  const shape = checkManifestShape(text)
  if (shape) return { documents: [], errors: [shape] }
  const trimmed = text.trimStart()
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) return parseJson(trimmed)
  return parseYaml(text)
}

function parseJson(text: string): ParsedManifest {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (e) {
    return { documents: [], errors: [{ document: 0, field: '(document)', rule: 'json-syntax', message: (e as Error).message }] }
  }
  const duplicate = duplicateJsonKey(text)
  if (duplicate) {
    // Paths start at the document: an element of a top-level array, or of a List's `items`.
    const path = [...duplicate.path]
    let document = 0
    if (Array.isArray(value)) document = Number(path.shift())
    else if ((isList(value) || isPage(value)) && path[0] === 'items' && path.length > 2) document = Number(path.splice(0, 2)[1])
    const field = path.join('.')
    return { documents: [], errors: [{ document, field, rule: 'duplicate-key', message: `the key "${duplicate.key.slice(0, 100)}" appears twice in one object; JSON would keep only the last` }] }
  }
  // A JSON array of documents, or a Kubernetes `List`, or one document.
  return expandLists(Array.isArray(value) ? value : [value])
}

const LIST_FIELDS = new Set(['apiVersion', 'kind', 'metadata', 'items'])
const PAGE_FIELDS = new Set(['items', 'nextCursor'])

function isList(value: unknown): value is { items: unknown[] } {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'List' && Array.isArray((value as { items?: unknown }).items)
}

/** A page of a list route, as GET answers it: its items and nothing but `nextCursor` beside them. */
function isPage(value: unknown): value is { items: unknown[] } {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || !Array.isArray((value as { items?: unknown }).items)) return false
  return Object.keys(value).every((key) => PAGE_FIELDS.has(key))
}

/** Lists and pages stand for their items, in place; a List's own fields beyond its envelope are refused. */
function expandLists(values: unknown[]): ParsedManifest {
  const documents: unknown[] = []
  const errors: FieldError[] = []
  for (const value of values) {
    if (isPage(value)) documents.push(...value.items)
    else if (isList(value)) {
      for (const key of Object.keys(value))
        if (!LIST_FIELDS.has(key)) errors.push({ document: documents.length, field: key, rule: 'unknown-field', message: `unknown field "${key}" of a List (it holds apiVersion, kind, metadata and items)` })
      documents.push(...value.items)
    } else documents.push(value)
    if (documents.length > MAX_DOCUMENTS) break
  }
  if (errors.length > 0) return { documents: [], errors }
  return limitCount(documents)
}

function parseYaml(text: string): ParsedManifest {
  const documents: unknown[] = []
  const errors: FieldError[] = []
  const docs = parseAllDocuments(text, { uniqueKeys: true, prettyErrors: true, schema: 'core' })
  const list = Array.isArray(docs) ? docs : [docs]
  let index = 0
  for (const doc of list) {
    if (doc.errors.length > 0) {
      for (const err of doc.errors)
        errors.push({ document: index, field: '(document)', rule: 'yaml-syntax', message: err.message.split('\n')[0] })
      index++
      continue
    }
    let value: unknown
    try {
      value = doc.toJS({ maxAliasCount: 100 })
    } catch (e) {
      errors.push({ document: index++, field: '(document)', rule: 'yaml-syntax', message: (e as Error).message })
      continue
    }
    // Empty documents (a leading or trailing `---`) carry nothing and are not counted.
    if (value === null || value === undefined) continue
    documents.push(value)
    index++
  }
  if (errors.length > 0) return { documents: [], errors }
  return expandLists(documents)
}

function limitCount(documents: unknown[]): ParsedManifest {
  if (documents.length > MAX_DOCUMENTS)
    return { documents: [], errors: [{ field: '(manifest)', rule: 'max-documents', message: `a manifest holds at most ${MAX_DOCUMENTS} documents, this one has ${documents.length}` }] }
  if (documents.length === 0)
    return { documents: [], errors: [{ field: '(manifest)', rule: 'required', message: 'the manifest holds no documents' }] }
  return { documents, errors: [] }
}
