'use client'
// A call's detail in a drawer on the right edge, beside the list it was opened from: the list stays
// in place (and, on wide screens, beside it in full), so the next row is one click away. Opening it
// moves focus into it; Escape or Close hands focus back to the row that opened it. On a phone it
// takes the whole screen.
import { useEffect, useRef } from 'react'
import { Button } from '@/components/ui/button'
import { CallDetailBody } from './call-detail'

/** Width of the drawer on wide screens; lists that open it leave this much room on their right. */
export const DRAWER_ROOM = 'xl:pr-[30rem]'

export function CallDrawer({ id, onClose }: { id: string; onClose: () => void }) {
  const panel = useRef<HTMLElement>(null)
  const opener = useRef<HTMLElement | null>(null)

  useEffect(() => {
    const active = document.activeElement as HTMLElement | null
    if (active && !panel.current?.contains(active) && active !== document.body) opener.current = active
    panel.current?.focus({ preventScroll: true })
  }, [id])

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape' && !e.defaultPrevented) onClose()
    }
    document.addEventListener('keydown', onKey)
    return () => document.removeEventListener('keydown', onKey)
  }, [onClose])

  // Focus goes back where it came from once the drawer is gone.
  useEffect(() => () => opener.current?.focus({ preventScroll: true }), [])

  return (
    <aside
      ref={panel}
      role="dialog"
      aria-modal="false"
      aria-labelledby="call-drawer-title"
      tabIndex={-1}
      data-testid="call-drawer"
      className="call-detail fixed inset-y-0 right-0 z-40 m-0 flex w-full flex-col border-l border-slate-200 bg-white shadow-2xl outline-none sm:w-[28rem] xl:w-[30rem]"
    >
      <header className="flex items-start justify-between gap-3 border-b border-slate-200 px-4 py-3">
        <div className="min-w-0">
          <h2 id="call-drawer-title" className="text-sm font-semibold text-slate-900">
            Call
          </h2>
          <code className="break-all font-mono text-xs text-slate-500">{id}</code>
        </div>
        <Button onClick={onClose} aria-label="Close the call">
          Close
        </Button>
      </header>
      <div className="min-h-0 flex-1 overflow-y-auto px-4 py-4">
        <CallDetailBody id={id} />
      </div>
    </aside>
  )
}
