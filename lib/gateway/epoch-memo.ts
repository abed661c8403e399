// Per-process memo of registry-derived values, valid while the registry epoch does not move (see
// lib/registry/registry-changes.ts). While the change listener is down nothing is kept.
import { countCacheLookup } from '@/lib/observability/metrics'
import { registryEpoch } from '@/lib/registry/registry-changes'

/** `metric`: the name its hits and misses are counted under (toolroom_cache_lookups_total), if any. */
export function epochMemo<V>(load: (key: string) => Promise<V>, maxEntries = 10_000, metric?: 'agent_tools'): (key: string) => Promise<V> {
  let epoch: number | null = null
  const values = new Map<string, Promise<V>>()
  return (key) => {
    const now = registryEpoch()
    if (now === null) return load(key)
    if (now !== epoch) {
      epoch = now
      values.clear()
    }
    let value = values.get(key)
    if (metric) countCacheLookup(metric, value !== undefined)
    if (!value) {
      if (values.size >= maxEntries) values.delete(values.keys().next().value!)
      value = load(key)
      values.set(key, value)
      value.catch(() => values.get(key) === value && values.delete(key))
    }
    return value
  }
}
