// The field-level difference between what is stored and what a document asks for: one entry per leaf
// that is added (no `before`), removed (no `after`) or changed, at a path such as
// `spec.safety.allowedAgents[1]` or `metadata.labels["app.kubernetes.io/name"]`. Pure. Arrays are
// compared index by index (as the stored JSON is), so an entry inserted in a list shows as the
// changes of the indexes after it.
import diff from 'microdiff'

export interface FieldChange {
  path: string
  before?: unknown
  after?: unknown
}

/** What a resource is compared on: the envelope fields a manifest sets, and its spec. */
export interface ComparableDocument {
  apiVersion: string
  metadata: { labels: unknown; annotations: unknown }
  spec: unknown
}

export function documentChanges(before: ComparableDocument, after: ComparableDocument): FieldChange[] {
  return valueChanges(comparable(before), comparable(after))
}

export function valueChanges(before: unknown, after: unknown, prefix: (string | number)[] = []): FieldChange[] {
  const changes: FieldChange[] = []
  const a = plainCopy(before)
  const b = plainCopy(after)
  if (!isContainer(a) || !isContainer(b) || Array.isArray(a) !== Array.isArray(b)) {
    if (!sameLeaf(a, b)) {
      changes.push(...leaves(a, prefix).map(({ path, value }) => ({ path, before: value })))
      changes.push(...leaves(b, prefix).map(({ path, value }) => ({ path, after: value })))
    }
    return changes
  }
  for (const d of diff(a as Record<string, unknown>, b as Record<string, unknown>, { cyclesFix: false })) {
    const path = [...prefix, ...d.path]
    if (d.type === 'CREATE') changes.push(...leaves(d.value, path).map(({ path: p, value }) => ({ path: p, after: value })))
    else if (d.type === 'REMOVE') changes.push(...leaves(d.oldValue, path).map(({ path: p, value }) => ({ path: p, before: value })))
    else if (isContainer(d.oldValue) || isContainer(d.value)) {
      // A container replaced by a scalar (or an array by an object): the leaves of each side.
      changes.push(...leaves(d.oldValue, path).map(({ path: p, value }) => ({ path: p, before: value })))
      changes.push(...leaves(d.value, path).map(({ path: p, value }) => ({ path: p, after: value })))
    } else changes.push({ path: formatPath(path), before: d.oldValue, after: d.value })
  }
  return changes
}

function comparable(doc: ComparableDocument) {
  return { apiVersion: doc.apiVersion, metadata: { labels: doc.metadata.labels ?? {}, annotations: doc.metadata.annotations ?? {} }, spec: doc.spec }
}

/**
 * A JSON copy whose objects have no prototype: the diff looks keys up with `in`, which would find
 * `constructor` or `toString` on a plain object and miss a label of that name. Undefined members
 * drop out, as they do when the document is stored as JSON.
 */
function plainCopy(value: unknown): unknown {
  if (value === undefined) return undefined
  return JSON.parse(JSON.stringify(value), (_key, v) => (v && typeof v === 'object' && !Array.isArray(v) ? Object.assign(Object.create(null), v) : v))
}

function isContainer(value: unknown): value is object {
  return typeof value === 'object' && value !== null
}

function sameLeaf(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b)
}

/** Every leaf under a value (an empty object or array is a leaf of its own). */
function leaves(value: unknown, path: (string | number)[]): { path: string; value: unknown }[] {
  if (value === undefined) return []
  if (!isContainer(value)) return [{ path: formatPath(path), value }]
  const entries = Array.isArray(value) ? value.map((v, i) => [i, v] as const) : Object.entries(value)
  if (entries.length === 0) return [{ path: formatPath(path), value: Array.isArray(value) ? [] : {} }]
  return entries.flatMap(([key, v]) => leaves(v, [...path, key]))
}

const PLAIN_KEY = /^[A-Za-z_$][A-Za-z0-9_$-]*$/

/** `spec.safety.allowedAgents[1]`; keys that are not plain names are quoted: `labels["a.b/c"]`. */
export function formatPath(path: readonly (string | number)[]): string {
  let out = ''
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`
    else if (PLAIN_KEY.test(part)) out += out ? `.${part}` : part
    else out += `[${JSON.stringify(part)}]`
  }
  return out
}
