// What changed between two tool surfaces (image tools or an MCP server's tools/list), by tool name.
// Pure; the order of a surface is its declaration order, so it is compared too.

export interface SurfaceTool {
  name: string
  [field: string]: unknown
}

export interface ChangedTool {
  name: string
  /** Fields whose value differs: description, inputSchema, outputSchema, annotations, title. */
  fields: string[]
  before: SurfaceTool
  after: SurfaceTool
}

export interface SurfaceDiff {
  added: SurfaceTool[]
  removed: SurfaceTool[]
  changed: ChangedTool[]
  reordered: boolean
}

export function diffSurface(before: SurfaceTool[], after: SurfaceTool[]): SurfaceDiff {
  const old = new Map(before.map((t) => [t.name, t]))
  const now = new Map(after.map((t) => [t.name, t]))
  const added = after.filter((t) => !old.has(t.name))
  const removed = before.filter((t) => !now.has(t.name))
  const changed: ChangedTool[] = []
  for (const tool of after) {
    const previous = old.get(tool.name)
    if (!previous) continue
    const fields = [...new Set([...Object.keys(previous), ...Object.keys(tool)])]
      .filter((f) => f !== 'name' && canonical(previous[f]) !== canonical(tool[f]))
      .sort()
    if (fields.length) changed.push({ name: tool.name, fields, before: previous, after: tool })
  }
  const kept = (list: SurfaceTool[], other: Map<string, SurfaceTool>) =>
    list
      .filter((t) => other.has(t.name))
      .map((t) => t.name)
      .join('\n')
  return { added, removed, changed, reordered: kept(before, now) !== kept(after, old) }
}

/** An entry a run left out of the surface: an image tool's broken rule, or an MCP tool's name and reason. */
export type RefusedEntry = { name?: string; reason?: string; field?: string; rule?: string; message?: string }

/**
 * The refusals of this run that the last successful run did not make (by name and reason): a tool
 * the source started to offer and Toolroom refused is a change of the surface worth an event, even
 * when the accepted tools stayed the same. `before` is read from a stored run: anything may be there.
 */
export function newRefusals(now: readonly RefusedEntry[], before: unknown): RefusedEntry[] {
  const known = new Set(Array.isArray(before) ? before.map((r) => JSON.stringify(r)) : [])
  return now.filter((r) => !known.has(JSON.stringify(r)))
}

export function isEmptyDiff(d: SurfaceDiff): boolean {
  return d.added.length === 0 && d.removed.length === 0 && d.changed.length === 0 && !d.reordered
}

/** One line per change, for logs and event titles: "+ acme.echo, − acme.old, ~ acme.search (inputSchema)". */
export function summarizeDiff(d: SurfaceDiff): string {
  const parts = [
    ...d.added.map((t) => `+ ${t.name}`),
    ...d.removed.map((t) => `− ${t.name}`),
    ...d.changed.map((c) => `~ ${c.name} (${c.fields.join(', ')})`),
    ...(d.reordered ? ['order changed'] : []),
  ]
  return parts.length ? parts.join(', ') : 'no change'
}

function canonical(value: unknown): string {
  if (value === undefined) return 'undefined'
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`
  if (value && typeof value === 'object')
    return `{${Object.keys(value as object)
      .sort()
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(',')}}`
  return JSON.stringify(value)
}
