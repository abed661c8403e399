'use client'
import { useState } from 'react'

export type Filters<K extends string> = Record<K, string>

/**
 * List filters that live in the address bar, so a filtered view can be shared and survives reload.
 * The page passes the search params it was rendered with; later changes replace the history entry
 * (Next keeps its router in sync with history.replaceState) instead of re-rendering on the server.
 */
export function useUrlFilters<K extends string>(keys: readonly K[], initial: Partial<Record<K, string | string[]>>) {
  const blank = Object.fromEntries(keys.map((k) => [k, ''])) as Filters<K>
  const [filters, setFilters] = useState<Filters<K>>(() => {
    const start = { ...blank }
    for (const k of keys) {
      const v = initial[k]
      if (typeof v === 'string') start[k] = v
      else if (Array.isArray(v) && v.length) start[k] = v[0]
    }
    return start
  })

  function update(next: Filters<K>) {
    setFilters(next)
    const search = new URLSearchParams()
    for (const k of keys) if (next[k]) search.set(k, next[k])
    const s = search.toString()
    window.history.replaceState(null, '', `${window.location.pathname}${s ? `?${s}` : ''}`)
  }

  return {
    filters,
    set: (key: K, value: string) => {
      if (filters[key] !== value) update({ ...filters, [key]: value })
    },
    reset: () => update(blank),
    /** Sets several filters at once (separate `set` calls would each start from the same old state). */
    patch: (values: Partial<Filters<K>>) => update({ ...filters, ...values }),
    active: keys.some((k) => filters[k] !== ''),
  }
}
