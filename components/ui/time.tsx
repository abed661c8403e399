'use client'
// Time labels that stay true while the page is open and agree with the server's HTML when it hydrates.
import { useSyncExternalStore } from 'react'
import { useNow } from '@/lib/client/clock'
import { dateTime, timeAgo } from '@/lib/client/format'

const never = () => () => {}

/** False while React hydrates server HTML, true afterwards and on pages rendered in the browser. */
function useHydrated() {
  return useSyncExternalStore(
    never,
    () => true,
    () => false,
  )
}

/** "5 minutes ago", kept current by the page's clock. */
export function TimeAgo({ iso }: { iso: string }) {
  return <time dateTime={iso}>{timeAgo(iso, useNow())}</time>
}

/**
 * A date in the reader's time zone. The server does not know that zone, so its HTML says UTC (named)
 * and the browser switches to local time once the page is live.
 */
export function LocalDateTime({ iso }: { iso: string }) {
  const hydrated = useHydrated()
  return <time dateTime={iso}>{dateTime(iso, hydrated ? undefined : 'UTC')}</time>
}
