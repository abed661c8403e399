// Units form a tree per namespace through spec.parent (a name in the same namespace).
export interface TreeUnit {
  id: string
  metadata: { name: string; namespace: string }
  spec: { parent?: string }
}

export interface TreeRow<U extends TreeUnit> {
  unit: U
  depth: number
  /** spec.parent names a unit that does not exist: the unit is shown as a root with a warning. */
  missingParent: string | null
}

export function unitTree<U extends TreeUnit>(units: U[]): Map<string, TreeRow<U>[]> {
  const byNamespace = new Map<string, U[]>()
  for (const u of units) byNamespace.set(u.metadata.namespace, [...(byNamespace.get(u.metadata.namespace) ?? []), u])
  const out = new Map<string, TreeRow<U>[]>()
  for (const [namespace, members] of [...byNamespace].sort(([a], [b]) => a.localeCompare(b))) {
    const names = new Set(members.map((u) => u.metadata.name))
    const children = new Map<string, U[]>()
    const roots: U[] = []
    for (const u of members) {
      const parent = u.spec.parent
      if (parent && names.has(parent) && parent !== u.metadata.name) children.set(parent, [...(children.get(parent) ?? []), u])
      else roots.push(u)
    }
    const rows: TreeRow<U>[] = []
    const seen = new Set<string>()
    const byName = (a: U, b: U) => a.metadata.name.localeCompare(b.metadata.name)
    const walk = (u: U, depth: number) => {
      if (seen.has(u.metadata.name)) return
      seen.add(u.metadata.name)
      rows.push({ unit: u, depth, missingParent: depth === 0 && u.spec.parent && !names.has(u.spec.parent) ? u.spec.parent : null })
      for (const c of (children.get(u.metadata.name) ?? []).sort(byName)) walk(c, depth + 1)
    }
    for (const r of roots.sort(byName)) walk(r, 0)
    // A parent cycle has no root; list its members flat rather than hiding them.
    for (const u of members.sort(byName)) if (!seen.has(u.metadata.name)) walk(u, 0)
    out.set(namespace, rows)
  }
  return out
}

/** Keeps rows that match, plus their ancestors so the match stays in context. */
export function filterTree<U extends TreeUnit>(rows: TreeRow<U>[], matches: (u: U) => boolean): TreeRow<U>[] {
  const keep = new Set<number>()
  rows.forEach((row, i) => {
    if (!matches(row.unit)) return
    keep.add(i)
    let depth = row.depth
    for (let j = i - 1; j >= 0 && depth > 0; j--) {
      if (rows[j].depth < depth) {
        keep.add(j)
        depth = rows[j].depth
      }
    }
  })
  return rows.filter((_, i) => keep.has(i))
}
