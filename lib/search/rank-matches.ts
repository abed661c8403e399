// How the global search orders what matched, pure: a name equal to the query first, then names that
// start with it, then names holding it after a separator (`refund` in `payments.refund`), then the
// rest; shorter names before longer ones, then alphabetically.

export function matchRank(name: string, query: string): number {
  const n = name.toLowerCase()
  const q = query.toLowerCase()
  if (n === q) return 0
  if (n.startsWith(q)) return 1
  const at = n.indexOf(q)
  if (at > 0 && /[./_-]/.test(n[at - 1])) return 2
  if (at >= 0) return 3
  // Matched on another column (a description): after every name match.
  return 4
}

export function rankByName<T extends { name: string }>(items: T[], query: string): T[] {
  return items
    .map((item) => ({ item, rank: matchRank(item.name, query) }))
    .sort((a, b) => a.rank - b.rank || a.item.name.length - b.item.name.length || (a.item.name < b.item.name ? -1 : a.item.name > b.item.name ? 1 : 0))
    .map((r) => r.item)
}

/** Newest first, at most `limit`, each id once: the calls of several tools and agents, merged. */
export function newestFirst<T extends { id: string; startedAt: Date }>(lists: T[][], limit: number): T[] {
  const seen = new Set<string>()
  return lists
    .flat()
    .sort((a, b) => b.startedAt.getTime() - a.startedAt.getTime() || (a.id < b.id ? 1 : -1))
    .filter((c) => (seen.has(c.id) ? false : (seen.add(c.id), true)))
    .slice(0, limit)
}
