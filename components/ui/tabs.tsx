'use client'
import { useId, useState } from 'react'

export interface TabItem {
  id: string
  label: React.ReactNode
  content: React.ReactNode
}

export function Tabs({ tabs, initial, onChange }: { tabs: TabItem[]; initial?: string; onChange?: (id: string) => void }) {
  const [active, setActive] = useState(initial ?? tabs[0]?.id)
  const base = useId()
  const current = tabs.find((t) => t.id === active) ?? tabs[0]
  return (
    <div>
      <div role="tablist" className="flex gap-1 border-b border-slate-200">
        {tabs.map((t) => (
          <button
            key={t.id}
            type="button"
            role="tab"
            id={`${base}-${t.id}-tab`}
            aria-selected={t.id === current?.id}
            aria-controls={`${base}-${t.id}-panel`}
            onClick={() => {
              setActive(t.id)
              onChange?.(t.id)
            }}
            className={`-mb-px border-b-2 px-3 py-1.5 text-sm font-medium ${
              t.id === current?.id ? 'border-slate-900 text-slate-900' : 'border-transparent text-slate-500 hover:text-slate-800'
            }`}
          >
            {t.label}
          </button>
        ))}
      </div>
      {current && (
        <div role="tabpanel" id={`${base}-${current.id}-panel`} aria-labelledby={`${base}-${current.id}-tab`} className="pt-3">
          {current.content}
        </div>
      )}
    </div>
  )
}
