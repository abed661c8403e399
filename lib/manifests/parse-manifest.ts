// Multi-document YAML or JSON in, plain objects out, with every syntax error located. The YAML parser
// is bounded against hostile input: aliases are capped (no "billion laughs") and only the core schema
// is understood (no custom tags that construct objects).
import { parseAllDocuments } from 'yaml'
import type { FieldError } from '@/lib/errors/app-error'

export const MAX_DOCUMENTS = 2000

export interface ParsedManifest {
  documents: unknown[]
  errors: FieldError[]
}

export function parseManifest(text: string): ParsedManifest {
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
  // A JSON array of documents, or a Kubernetes `List`, or one document.
  const items = Array.isArray(value)
    ? value
    : isList(value)
      ? (value as { items: unknown[] }).items
      : [value]
  return limitCount(items)
}

function isList(value: unknown): boolean {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'List' && Array.isArray((value as { items?: unknown }).items)
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
  return limitCount(documents)
}

function limitCount(documents: unknown[]): ParsedManifest {
  if (documents.length > MAX_DOCUMENTS)
    return { documents: [], errors: [{ field: '(manifest)', rule: 'max-documents', message: `a manifest holds at most ${MAX_DOCUMENTS} documents, this one has ${documents.length}` }] }
  if (documents.length === 0)
    return { documents: [], errors: [{ field: '(manifest)', rule: 'required', message: 'the manifest holds no documents' }] }
  return { documents, errors: [] }
}
