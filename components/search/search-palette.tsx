'use client'
// The global search (Ctrl-K, or the Search button): pages, resources, waiting approvals and calls
// in one list. Arrow keys move, Enter opens, Escape closes; typing asks the server after a pause.
import { useQuery } from '@tanstack/react-query'
import { useRouter } from 'next/navigation'
import { useEffect, useId, useMemo, useRef, useState } from 'react'
import { useCaller } from '@/components/access/caller-context'
import { isAllowed } from '@/lib/auth/access-rules'
import { timeAgo } from '@/lib/client/format'
import { queryKeys } from '@/lib/client/query-keys'
import { approvalHitHref, callHitHref, resourceHitHref, search } from '@/lib/client/search-api'
import { MORE_PAGES, NAV_ITEMS } from '@/components/layout/nav-items'

const PAGES = [...NAV_ITEMS, ...MORE_PAGES]

interface Option {
  key: string
  href: string
  title: string
  detail: string
}

interface Group {
  label: string
  options: Option[]
}

const KIND_LABELS: Record<string, string> = {
  Agent: 'Agents',
  Tool: 'Tools',
  Unit: 'Units',
  LanguageTool: 'LanguageTools',
  Connector: 'Connectors',
  Secret: 'Secrets',
}

function useDebounced(value: string, ms: number) {
  const [debounced, setDebounced] = useState(value)
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), ms)
    return () => clearTimeout(timer)
  }, [value, ms])
  return debounced
}

export function SearchPalette({ onClose }: { onClose: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null)
  const router = useRouter()
  const caller = useCaller()
  const base = useId()
  const [text, setText] = useState('')
  const [active, setActive] = useState(0)
  const q = useDebounced(text.trim(), 200)
  const result = useQuery({ queryKey: [...queryKeys.all, 'search', q], queryFn: () => search(q), enabled: q.length > 0, staleTime: 10_000 })

  useEffect(() => {
    // Focus returns where it was when the palette opened.
    const before = document.activeElement as HTMLElement | null
    const d = dialog.current
    if (d && !d.open) d.showModal()
    return () => before?.focus?.()
  }, [])

  const groups = useMemo<Group[]>(() => {
    const needle = text.trim().toLowerCase()
    const pages = PAGES.filter(
      (p) => !p.access || (caller && isAllowed({ kind: 'user', id: caller.id, name: caller.name, roles: [caller.role], via: 'session' }, p.access)),
    )
      .filter((p) => !needle || p.label.toLowerCase().includes(needle) || p.keywords?.some((k) => k.includes(needle)))
      .map((p) => ({ key: `page:${p.href}`, href: p.href, title: p.label, detail: p.hint ?? p.href }))
    const out: Group[] = [{ label: 'Pages', options: needle ? pages.slice(0, 4) : pages }]
    const data = result.data && result.data.query === q && q ? result.data : null
    if (data) {
      for (const kind of Object.keys(KIND_LABELS)) {
        const hits = data.resources.filter((r) => r.kind === kind)
        if (hits.length)
          out.push({
            label: KIND_LABELS[kind],
            options: hits.map((h) => ({
              key: `${kind}:${h.id}`,
              href: resourceHitHref(h),
              title: h.name,
              detail: h.description ? `${h.namespace} · ${h.description}` : h.namespace,
            })),
          })
      }
      if (data.approvals.length)
        out.push({
          label: 'Approvals',
          options: data.approvals.map((a) => ({
            key: `approval:${a.id}`,
            href: approvalHitHref(a),
            title: a.toolId,
            detail: `${a.status} · ${a.agent.namespace}/${a.agent.name} · asked ${timeAgo(a.requestedAt)}`,
          })),
        })
      if (data.calls.length)
        out.push({
          label: 'Calls',
          options: data.calls.map((c) => ({
            key: `call:${c.id}`,
            href: callHitHref(c),
            title: c.toolId,
            detail: `${c.outcome.replace(/_/g, ' ')} · ${c.agent.namespace}/${c.agent.name} · ${timeAgo(c.startedAt)}`,
          })),
        })
    }
    return out.filter((g) => g.options.length > 0)
  }, [text, q, result.data, caller])

  const options = groups.flatMap((g) => g.options)
  const current = Math.min(active, Math.max(0, options.length - 1))
  // A new list (the text changed, or the server's answer came) starts at its first option.
  const [activeFor, setActiveFor] = useState(result.data)
  if (activeFor !== result.data) {
    setActiveFor(result.data)
    setActive(0)
  }
  const optionId = (i: number) => `${base}-option-${i}`

  const open = (option: Option | undefined) => {
    if (!option) return
    onClose()
    router.push(option.href)
  }

  let index = -1
  return (
    <dialog
      ref={dialog}
      aria-label="Search"
      onClose={onClose}
      onClick={(e) => e.target === dialog.current && dialog.current?.close()}
      className="mx-auto mt-[10vh] w-[min(40rem,calc(100vw-1.5rem))] max-w-none rounded-lg bg-white p-0 shadow-2xl backdrop:bg-slate-900/50"
      data-testid="search-palette"
    >
      <div className="border-b border-slate-200 p-3">
        <input
          autoFocus
          role="combobox"
          aria-expanded="true"
          aria-controls={`${base}-results`}
          aria-activedescendant={options.length ? optionId(current) : undefined}
          aria-autocomplete="list"
          aria-label="Search resources, approvals and calls"
          placeholder="Search agents, tools, units, approvals, calls…"
          value={text}
          onChange={(e) => {
            setText(e.target.value)
            setActive(0)
          }}
          onKeyDown={(e) => {
            if (e.key === 'ArrowDown' || (e.key === 'n' && e.ctrlKey)) {
              e.preventDefault()
              setActive((current + 1) % Math.max(1, options.length))
            } else if (e.key === 'ArrowUp' || (e.key === 'p' && e.ctrlKey)) {
              e.preventDefault()
              setActive((current - 1 + options.length) % Math.max(1, options.length))
            } else if (e.key === 'Enter') {
              e.preventDefault()
              open(options[current])
            }
          }}
          className="h-10 w-full rounded-md border border-slate-300 px-3 text-base text-slate-900 placeholder:text-slate-500"
        />
        <p className="mt-1.5 text-xs text-slate-500" aria-live="polite">
          {q && result.isFetching
            ? 'Searching…'
            : q && result.isError
              ? `Search failed: ${(result.error as Error).message}`
              : '↑/↓ move · Enter opens · Esc closes'}
        </p>
      </div>
      <div id={`${base}-results`} role="listbox" aria-label="Results" className="max-h-[60vh] overflow-y-auto p-2">
        {groups.map((g) => (
          <div key={g.label} role="group" aria-labelledby={`${base}-${g.label}`} className="mb-2">
            <div id={`${base}-${g.label}`} className="px-2 py-1 text-xs font-semibold uppercase tracking-wide text-slate-500">
              {g.label}
            </div>
            {g.options.map((o) => {
              index += 1
              const i = index
              return (
                <div
                  key={o.key}
                  id={optionId(i)}
                  role="option"
                  aria-selected={i === current}
                  data-testid="search-option"
                  onMouseMove={() => setActive(i)}
                  onClick={() => open(o)}
                  className={`cursor-pointer rounded-md px-2 py-1.5 ${i === current ? 'bg-sky-50 ring-1 ring-inset ring-sky-300' : ''}`}
                >
                  <div className="truncate font-mono text-sm text-slate-900">{o.title}</div>
                  <div className="truncate text-xs text-slate-600">{o.detail}</div>
                </div>
              )
            })}
          </div>
        ))}
        {q && result.data?.query === q && groups.length === 0 && <p className="px-2 py-6 text-center text-sm text-slate-600">Nothing matches “{q}”.</p>}
      </div>
    </dialog>
  )
}
