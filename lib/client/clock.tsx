'use client'
// One clock for the "asked 5 min ago" and "12 min left" labels of a page: a single interval, and
// only the labels re-render when it ticks, not the lists around them. While a server-rendered page
// hydrates, the labels read the moment the server rendered at, so the HTML and the first client
// render agree (a mismatch would make React throw the server's HTML away and render it all again).
import { createContext, useContext, useLayoutEffect, useSyncExternalStore } from 'react'

const TICK_MS = 1000
let now = Date.now()
let timer: ReturnType<typeof setInterval> | undefined
const listeners = new Set<() => void>()

function subscribe(listener: () => void) {
  listeners.add(listener)
  if (!timer) {
    timer = setInterval(() => {
      now = Date.now()
      for (const l of listeners) l()
    }, TICK_MS)
  }
  return () => {
    listeners.delete(listener)
    if (listeners.size === 0) {
      clearInterval(timer)
      timer = undefined
    }
  }
}

// Stable between two reads within a tick (React requires it); fresh for the first label after a pause.
function snapshot() {
  if (!timer && Date.now() - now > TICK_MS) now = Date.now()
  return now
}

const RenderedAt = createContext<number | null>(null)

/** `at`: when the server rendered the page (Date.now() there), handed down to the client. */
export function RenderedAtProvider({ at, children }: { at: number; children: React.ReactNode }) {
  // Until the first tick the browser's clock reads the server's moment too: every label then renders
  // after hydration as it did during it, so React has no second pass to make over all of them. A
  // layout effect, so the clock is set before the labels' own effects compare their readings.
  useLayoutEffect(() => {
    if (!timer) now = at
  }, [at])
  return <RenderedAt.Provider value={at}>{children}</RenderedAt.Provider>
}

/**
 * The current time in ms, ticking every second; the server's render time while hydrating. A page
 * that renders time labels on the server wraps them in RenderedAtProvider: without it the server and
 * the browser have no moment in common, and the labels would not hydrate as rendered.
 */
export function useNow(): number {
  const renderedAt = useContext(RenderedAt)
  return useSyncExternalStore(subscribe, snapshot, () => renderedAt ?? now)
}
