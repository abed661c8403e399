// Envelopes that stand for their items in a manifest: a Kubernetes `List` (what `kubectl get -o yaml`
// emits) and a page of a list route (`{items, nextCursor}`, what GET answers). The manifest's parser
// expands them into documents and locate-fields.ts expands their nodes the same way, so both number
// documents alike.

/** The fields of a List's envelope; any other is refused. */
export const LIST_FIELDS: ReadonlySet<string> = new Set(['apiVersion', 'kind', 'metadata', 'items'])
/** All a page may hold: its items and the cursor of the next one. */
export const PAGE_FIELDS: ReadonlySet<string> = new Set(['items', 'nextCursor'])

export function isList(value: unknown): value is { items: unknown[] } {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'List' && Array.isArray((value as { items?: unknown }).items)
}

export function isPage(value: unknown): value is { items: unknown[] } {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || !Array.isArray((value as { items?: unknown }).items)) return false
  return Object.keys(value).every((key) => PAGE_FIELDS.has(key))
}
