'use client'
import { useId, useRef, useState } from 'react'

export interface TabItem {
  id: string
  label: React.ReactNode
  content: React.ReactNode
}

/**
 * Tabs as the ARIA pattern has them: one Tab stop for the row, arrow keys (and Home/End) move between
 * tabs. `value` makes the choice the caller's (a tab picked from data that arrives later); without
 * it, `initial` starts the tabs and they keep their own state.
 */
export function Tabs({ tabs, initial, value, onChange }: { tabs: TabItem[]; initial?: string; value?: string; onChange?: (id: string) => void }) {
  const [own, setOwn] = useState(initial ?? tabs[0]?.id)
  const active = value ?? own
  const base = useId()
  const list = useRef<HTMLDivElement>(null)
  const current = tabs.find((t) => t.id === active) ?? tabs[0]
  const choose = (id: string, focus = false) => {
    setOwn(id)
    onChange?.(id)
    if (focus) list.current?.querySelector<HTMLElement>(`[data-tab-id="${CSS.escape(id)}"]`)?.focus()
  }
  const onKeyDown = (e: React.KeyboardEvent) => {
    const i = tabs.findIndex((t) => t.id === current?.id)
    const to = { ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: tabs.length - 1 }[e.key]
    if (to === undefined || tabs.length === 0) return
    e.preventDefault()
    choose(tabs[(to + tabs.length) % tabs.length].id, true)
  }
  return (
    <div>
      <div ref={list} role="tablist" onKeyDown={onKeyDown} className="flex flex-wrap gap-1 border-b border-slate-200">
        {tabs.map((t) => {
          const selected = t.id === current?.id
          return (
            <button
              key={t.id}
              type="button"
              role="tab"
              data-tab-id={t.id}
              id={`${base}-${t.id}-tab`}
              aria-selected={selected}
              aria-controls={`${base}-${t.id}-panel`}
              tabIndex={selected ? 0 : -1}
              onClick={() => choose(t.id)}
              className={`-mb-px border-b-2 px-3 py-1.5 text-sm font-medium ${selected ? 'border-slate-900 text-slate-900' : 'border-transparent text-slate-600 hover:text-slate-800'}`}
            >
              {t.label}
            </button>
          )
        })}
      </div>
      {current && (
        <div role="tabpanel" id={`${base}-${current.id}-panel`} aria-labelledby={`${base}-${current.id}-tab`} className="pt-3">
          {current.content}
        </div>
      )}
    </div>
  )
}
