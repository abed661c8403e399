// Multi-document YAML or JSON in, plain objects out, with every syntax error located. The YAML parser
// is bounded against hostile input: aliases are capped (no "billion laughs"), only the core schema
// is understood (no custom tags that construct objects), and the number of documents and the depth
// of nesting are checked before any parser runs (lib/manifests/manifest-limits.ts). A key given twice
// in one mapping is refused in JSON as in YAML, naming the key. A Kubernetes `List` and a page of a
// list route stand for their items (list-envelopes.ts).
//
// A document with a syntax error does not hide the others: readManifest hands back every document
// that parsed (numbered as in the text) beside the errors, so Apply checks them all in one pass, and
// places every problem at a line and column (locate-fields.ts).
import { type ParseError, parse as parseJsonTolerantly } from 'jsonc-parser'
import { LineCounter, parseAllDocuments } from 'yaml'
import type { FieldError } from '@/lib/errors/app-error'
import { jsonTree, locateErrors, type ManifestTree, yamlTree } from './locate-fields'
import { isList, isPage, LIST_FIELDS } from './list-envelopes'
import { checkManifestShape, duplicateJsonKeys, MAX_DOCUMENTS } from './manifest-limits'

export { MAX_DOCUMENTS } from './manifest-limits'

export interface ParsedManifest {
  documents: unknown[]
  errors: FieldError[]
}

export interface ReadManifest {
  /** The documents that parsed, each with its number in the manifest (one with a syntax error keeps its number). */
  documents: Array<{ index: number; value: unknown }>
  /** Syntax errors and limits, located. */
  errors: FieldError[]
  /** The errors with the line and column of what they name in this text, in text order. */
  locate(errors: FieldError[]): FieldError[]
}

/** Documents, or the syntax errors that keep any from being used. */
export function parseManifest(text: string): ParsedManifest {
  const read = readManifest(text)
  return read.errors.length > 0 ? { documents: [], errors: read.errors } : { documents: read.documents.map((d) => d.value), errors: [] }
}

const unlocated = (errors: FieldError[]) => errors

export function readManifest(text: string): ReadManifest {
  const shape = checkManifestShape(text)
  if (shape) return { documents: [], errors: [{ ...shape, line: 1, column: 1 }], locate: unlocated }
  const trimmed = text.trimStart()
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) return readJson(text, text.length - trimmed.length)
  return readYaml(text)
}

function lazyJsonTree(text: string): () => ManifestTree {
  let tree: ManifestTree | null = null
  return () => (tree ??= jsonTree(text))
}

// `lead`: the whitespace (a byte-order mark included) before the JSON, which JSON.parse would refuse.
function readJson(text: string, lead: number): ReadManifest {
  const tree = lazyJsonTree(text)
  const locate = (errors: FieldError[]) => locateErrors(tree(), errors)
  let value: unknown
  try {
    value = JSON.parse(text.slice(lead))
  } catch (e) {
    const message = (e as Error).message
    return { documents: [], errors: [{ document: 0, field: '(document)', rule: 'json-syntax', message, ...jsonSyntaxPosition(text, lead, message) }], locate }
  }
  const lineCounter = new LineCounter()
  lineCounter.addNewLine(0)
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) lineCounter.addNewLine(at + 1)
  const errors: FieldError[] = duplicateJsonKeys(text.slice(lead)).map((duplicate) => {
    // Paths start at the document: an element of a top-level array, or of a List's `items`.
    const path = [...duplicate.path]
    let document = 0
    if (Array.isArray(value)) document = Number(path.shift())
    else if ((isList(value) || isPage(value)) && path[0] === 'items' && path.length > 2) document = Number(path.splice(0, 2)[1])
    const { line, col } = lineCounter.linePos(lead + duplicate.offset)
    return {
      document,
      field: path.join('.'),
      rule: 'duplicate-key',
      message: `the key "${duplicate.key.slice(0, 100)}" appears twice in one object; JSON would keep only the last`,
      line,
      column: col,
    }
  })
  // A JSON array of documents, or a Kubernetes `List` or page, or one document.
  const documents: Array<{ index: number; value: unknown }> = []
  for (const item of Array.isArray(value) ? value : [value]) {
    for (const document of expandEnvelope(item, documents.length, errors)) documents.push({ index: documents.length, value: document })
    if (documents.length > MAX_DOCUMENTS) break
  }
  const limited = limitCount(documents.length)
  if (limited) return { documents: [], errors: [limited], locate }
  return { documents, errors, locate }
}

/**
 * Where JSON.parse stopped. Its messages name no position on some Node.js versions, so a parser that
 * reports offsets (jsonc-parser, strict: no comments, no trailing commas) finds the first error.
 */
function jsonSyntaxPosition(text: string, lead: number, message: string): { line: number; column: number } {
  const found: ParseError[] = []
  parseJsonTolerantly(text.slice(lead), found, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false })
  const position = /position (\d+)/.exec(message)
  const offset = lead + (found[0]?.offset ?? (position ? Number(position[1]) : text.length - lead))
  const before = text.slice(0, Math.min(offset, text.length))
  return { line: before.split('\n').length, column: before.length - (before.lastIndexOf('\n') + 1) + 1 }
}

/** A List's or page's items (a List's fields beyond its envelope are errors), else the value itself. */
function expandEnvelope(value: unknown, firstIndex: number, errors: FieldError[]): unknown[] {
  if (isPage(value)) return value.items
  if (!isList(value)) return [value]
  for (const key of Object.keys(value))
    if (!LIST_FIELDS.has(key))
      errors.push({
        document: firstIndex,
        field: key,
        rule: 'unknown-field',
        message: `unknown field "${key}" of a List (it holds apiVersion, kind, metadata and items)`,
      })
  return value.items
}

function readYaml(text: string): ReadManifest {
  const documents: Array<{ index: number; value: unknown }> = []
  const errors: FieldError[] = []
  const lineCounter = new LineCounter()
  const docs = parseAllDocuments(text, { uniqueKeys: true, prettyErrors: true, schema: 'core', lineCounter })
  const list = Array.isArray(docs) ? docs : []
  const locate = (found: FieldError[]) => locateErrors(yamlTree(list, lineCounter), found)
  let index = 0
  for (const doc of list) {
    if (doc.errors.length > 0) {
      for (const err of doc.errors) {
        const at = err.linePos?.[0]
        errors.push({
          document: index,
          field: '(document)',
          rule: 'yaml-syntax',
          message: err.message.split('\n')[0],
          ...(at ? { line: at.line, column: at.col } : {}),
        })
      }
      index++
      continue
    }
    let value: unknown
    try {
      value = doc.toJS({ maxAliasCount: 100 })
    } catch (e) {
      const at = doc.contents?.range ? lineCounter.linePos(doc.contents.range[0]) : null
      errors.push({
        document: index++,
        field: '(document)',
        rule: 'yaml-syntax',
        message: (e as Error).message,
        ...(at ? { line: at.line, column: at.col } : {}),
      })
      continue
    }
    // Empty documents (a leading or trailing `---`) carry nothing and are not counted.
    if (value === null || value === undefined) continue
    for (const document of expandEnvelope(value, index, errors)) documents.push({ index: index++, value: document })
    if (index > MAX_DOCUMENTS) break
  }
  const limited = limitCount(index)
  if (limited) return { documents: [], errors: [limited], locate }
  return { documents, errors, locate }
}

function limitCount(count: number): FieldError | null {
  if (count > MAX_DOCUMENTS)
    return {
      field: '(manifest)',
      rule: 'max-documents',
      message: `a manifest holds at most ${MAX_DOCUMENTS} documents, this one has ${count}`,
      line: 1,
      column: 1,
    }
  if (count === 0) return { field: '(manifest)', rule: 'required', message: 'the manifest holds no documents', line: 1, column: 1 }
  return null
}
