'use client'
// Below 1024 px the sidebar folds away: this bar keeps the menu, the search and the approvals
// waiting within reach.
import { useSyncExternalStore } from 'react'
import { IntentLink } from '@/components/ui/intent-link'
import { usePendingApprovalCount } from '@/lib/client/approval-hooks'
import { count } from '@/lib/client/format'

const noSubscription = () => () => {}
const isApple = () => /Mac|iPhone|iPad/.test(navigator.platform)

/** "Ctrl K", or "⌘ K" on Apple keyboards (known only in the browser: the server says Ctrl). */
export function SearchShortcut() {
  const apple = useSyncExternalStore(noSubscription, isApple, () => false)
  return <kbd className="rounded border border-current/30 px-1 font-sans text-[11px] opacity-80">{apple ? '⌘' : 'Ctrl'} K</kbd>
}

export function TopBar({
  menuButton,
  menuOpen,
  onMenu,
  onSearch,
}: {
  menuButton: React.RefObject<HTMLButtonElement | null>
  menuOpen: boolean
  onMenu: () => void
  onSearch: () => void
}) {
  const pending = usePendingApprovalCount()
  return (
    <header data-surface="dark" className="sticky top-0 z-20 flex items-center gap-2 border-b border-slate-800 bg-slate-900 px-3 py-2 text-slate-200 lg:hidden">
      <button
        ref={menuButton}
        type="button"
        aria-expanded={menuOpen}
        aria-controls="main-menu"
        onClick={onMenu}
        className="inline-flex h-9 shrink-0 items-center gap-1.5 rounded-md border border-slate-700 px-2.5 text-sm font-medium hover:bg-slate-800"
      >
        <span aria-hidden className="text-base leading-none">
          ☰
        </span>
        Menu
      </button>
      <IntentLink href="/" className="flex items-center gap-1.5 text-white">
        <span aria-hidden className="grid h-6 w-6 place-items-center rounded bg-amber-400 font-mono text-xs font-bold text-slate-900">
          T
        </span>
        <span className="sr-only text-sm font-semibold sm:not-sr-only">Toolroom</span>
      </IntentLink>
      <span className="flex-1" />
      {pending > 0 && (
        <IntentLink
          href="/approvals"
          className="inline-flex h-9 min-w-0 items-center gap-1.5 rounded-md px-2 text-sm hover:bg-slate-800"
          data-testid="top-bar-pending-approvals"
        >
          <span className="truncate">Approvals</span>
          <span className="rounded-full bg-amber-400 px-1.5 text-xs font-semibold tabular-nums text-slate-900">{count(pending)}</span>
          <span className="sr-only">waiting</span>
        </IntentLink>
      )}
      <button
        type="button"
        onClick={onSearch}
        className="inline-flex h-9 shrink-0 items-center rounded-md border border-slate-700 px-2.5 text-sm hover:bg-slate-800"
      >
        Search
      </button>
    </header>
  )
}
