'use client'
// The portal's one link: it prefetches when the reader shows intent (pointer over it, or keyboard
// focus on it) instead of as soon as it is on screen. The portal's pages are all rendered per
// request, so a prefetch brings little more than the route's outline; fetching one for every link in
// view (the sidebar, and every row of a list) cost the server dozens of requests per page view and
// the browser their handling while the page came alive.
import Link from 'next/link'
import { type ComponentProps, useState } from 'react'

export function IntentLink({ onMouseEnter, onFocus, onTouchStart, ...props }: Omit<ComponentProps<typeof Link>, 'prefetch'>) {
  const [intent, setIntent] = useState(false)
  return (
    <Link
      {...props}
      prefetch={intent ? null : false}
      onMouseEnter={(e) => {
        setIntent(true)
        onMouseEnter?.(e)
      }}
      onFocus={(e) => {
        setIntent(true)
        onFocus?.(e)
      }}
      onTouchStart={(e) => {
        setIntent(true)
        onTouchStart?.(e)
      }}
    />
  )
}
