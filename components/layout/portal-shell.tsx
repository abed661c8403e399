'use client'
// The frame of every signed-in page: a skip link, the navigation (a sidebar from 1024 px, a menu
// behind a button below), the page, the global search (Ctrl-K) over all of it, and `?` for the
// keyboard shortcuts.
import { usePathname } from 'next/navigation'
import { useCallback, useEffect, useRef, useState } from 'react'
import { SearchPalette } from '@/components/search/search-palette'
import { replayEarlyShortcuts } from './early-shortcut-note'
import { KeyboardShortcutsDialog, typesText } from './keyboard-shortcuts'
import { Sidebar } from './sidebar'
import { TopBar } from './top-bar'

export function PortalShell({ children }: { children: React.ReactNode }) {
  const pathname = usePathname()
  const [menuOpen, setMenuOpen] = useState(false)
  const [menuPathname, setMenuPathname] = useState(pathname)
  const [searchOpen, setSearchOpen] = useState(false)
  const [shortcutsOpen, setShortcutsOpen] = useState(false)
  const menuButton = useRef<HTMLButtonElement>(null)

  // Following a link closes the menu; the page that opens is what the reader asked for. Set while
  // rendering, so the new page never paints with the menu still over it.
  if (menuPathname !== pathname) {
    setMenuPathname(pathname)
    setMenuOpen(false)
  }

  useEffect(() => {
    function onKey(e: KeyboardEvent) {
      if ((e.ctrlKey || e.metaKey) && !e.altKey && e.key.toLowerCase() === 'k') {
        e.preventDefault()
        setSearchOpen(true)
      } else if (e.key === '?' && !e.ctrlKey && !e.metaKey && !e.altKey && !typesText(e.target) && !document.querySelector('dialog[open]')) {
        e.preventDefault()
        setShortcutsOpen(true)
      }
    }
    window.addEventListener('keydown', onKey)
    replayEarlyShortcuts()
    return () => window.removeEventListener('keydown', onKey)
  }, [])

  // Stable: the menu's focus effect depends on it, and must run when the menu opens, not on every render.
  const closeMenu = useCallback(() => {
    setMenuOpen(false)
    menuButton.current?.focus()
  }, [])
  const openSearch = useCallback(() => setSearchOpen(true), [])

  return (
    <>
      <a
        href="#main"
        className="sr-only z-50 rounded-md bg-white px-3 py-2 text-sm font-medium text-slate-900 shadow focus:not-sr-only focus:fixed focus:left-3 focus:top-3"
      >
        Skip to content
      </a>
      <div className="lg:flex">
        <TopBar menuButton={menuButton} menuOpen={menuOpen} onMenu={() => setMenuOpen((o) => !o)} onSearch={openSearch} />
        {menuOpen && <div aria-hidden className="fixed inset-0 z-30 bg-slate-900/50 lg:hidden" onClick={closeMenu} />}
        <Sidebar open={menuOpen} onClose={closeMenu} onSearch={openSearch} />
        <main id="main" tabIndex={-1} className="min-w-0 flex-1 focus:outline-none">
          <div className="mx-auto max-w-7xl px-4 py-4 sm:px-6 sm:py-5">{children}</div>
        </main>
      </div>
      {searchOpen && <SearchPalette onClose={() => setSearchOpen(false)} />}
      {shortcutsOpen && <KeyboardShortcutsDialog onClose={() => setShortcutsOpen(false)} />}
    </>
  )
}
