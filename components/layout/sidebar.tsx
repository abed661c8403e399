'use client'
import { usePathname } from 'next/navigation'
import { useEffect, useRef } from 'react'
import { useCaller } from '@/components/access/caller-context'
import { UserMenu } from '@/components/access/user-menu'
import { IntentLink } from '@/components/ui/intent-link'
import { isAllowed } from '@/lib/auth/access-rules'
import { usePendingApprovalCount } from '@/lib/client/approval-hooks'
import { count } from '@/lib/client/format'
import { NAV_ITEMS } from './nav-items'
import { SearchShortcut } from './top-bar'

function isActive(pathname: string, href: string) {
  return href === '/' ? pathname === '/' : pathname === href || pathname.startsWith(`${href}/`)
}

/**
 * The navigation. From 1024 px it is the sidebar, always there; below, a panel over the page that
 * the top bar's Menu button opens (`open`), closed by Escape, the backdrop or following a link.
 */
export function Sidebar({ open, onClose, onSearch }: { open: boolean; onClose: () => void; onSearch: () => void }) {
  const pathname = usePathname() ?? '/'
  const caller = useCaller()
  const pending = usePendingApprovalCount()
  const panel = useRef<HTMLDivElement>(null)
  const visible = NAV_ITEMS.filter(
    (item) => !item.access || (caller && isAllowed({ kind: 'user', id: caller.id, name: caller.name, roles: [caller.role], via: 'session' }, item.access)),
  )

  useEffect(() => {
    if (!open) return
    // A selector list would match the first link in the document (the logo), not the current page's.
    const links = panel.current
    ;(links?.querySelector<HTMLElement>('a[aria-current="page"]') ?? links?.querySelector<HTMLElement>('nav a'))?.focus()
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && onClose()
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [open, onClose])

  return (
    // From 1024 px: a dark column as tall as the page, with the panel stuck to the top of the screen.
    <div className={`${open ? 'contents' : 'hidden'} lg:block lg:w-52 lg:shrink-0 lg:border-r lg:border-slate-800 lg:bg-slate-900`}>
      <div
        ref={panel}
        id="main-menu"
        data-surface="dark"
        className={`${open ? 'fixed inset-y-0 left-0 z-40 flex w-64 max-w-[85vw] border-r border-slate-800 shadow-xl' : 'hidden'} flex-col overflow-y-auto bg-slate-900 text-slate-300 lg:sticky lg:top-0 lg:z-auto lg:flex lg:h-screen lg:w-52 lg:border-r-0 lg:shadow-none`}
      >
        <div className="flex items-center justify-between gap-2 px-4 py-4">
          <IntentLink href="/" className="flex items-center gap-2 text-white">
            <span aria-hidden className="grid h-7 w-7 place-items-center rounded bg-amber-400 font-mono text-sm font-bold text-slate-900">
              T
            </span>
            <span className="text-base font-semibold tracking-tight">Toolroom</span>
          </IntentLink>
          {open && (
            <button type="button" onClick={onClose} className="rounded px-2 py-1 text-sm text-slate-200 hover:bg-slate-800 lg:hidden">
              Close<span className="sr-only"> menu</span>
            </button>
          )}
        </div>
        <div className="px-2 pb-2">
          <button
            type="button"
            onClick={onSearch}
            className="flex w-full items-center justify-between rounded-md border border-slate-700 px-3 py-1.5 text-left text-sm text-slate-300 hover:border-slate-500 hover:text-white"
          >
            Search
            <SearchShortcut />
          </button>
        </div>
        <nav aria-label="Main" className="flex-1 px-2">
          <ul className="space-y-0.5">
            {visible.map((item) => {
              const active = isActive(pathname, item.href)
              const waiting = item.href === '/approvals' && pending ? pending : 0
              return (
                <li key={item.href}>
                  <IntentLink
                    href={item.href}
                    aria-current={active ? 'page' : undefined}
                    className={`flex items-start justify-between gap-2 rounded-md px-3 py-1.5 text-sm ${active ? 'bg-slate-700 font-medium text-white' : 'hover:bg-slate-800 hover:text-white'}`}
                  >
                    <span>
                      {item.label}
                      {item.hint && <span className="block text-[11px] leading-tight text-slate-300">{item.hint}</span>}
                    </span>
                    {waiting > 0 && (
                      <span
                        data-testid="nav-pending-approvals"
                        className="mt-0.5 rounded-full bg-amber-400 px-1.5 text-xs font-semibold tabular-nums text-slate-900"
                      >
                        {count(waiting)}
                        <span className="sr-only"> waiting</span>
                      </span>
                    )}
                  </IntentLink>
                </li>
              )
            })}
          </ul>
        </nav>
        <UserMenu />
      </div>
    </div>
  )
}
