// Per-process memo of registry-derived values, valid while the registry epoch does not move (see
// lib/registry/registry-changes.ts). While the change listener is down nothing is kept.
import { registryEpoch } from '@/lib/registry/registry-changes'

export function epochMemo<V>(load: (key: string) => Promise<V>, maxEntries = 10_000): (key: string) => Promise<V> {
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
    if (!value) {
      if (values.size >= maxEntries) values.delete(values.keys().next().value!)
      value = load(key)
      values.set(key, value)
      value.catch(() => values.get(key) === value && values.delete(key))
    }
    return value
  }
}
