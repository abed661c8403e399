import { IntentLink } from '@/components/ui/intent-link'

export interface BarItem {
  key: string
  label: React.ReactNode
  count: number
  /** A Tailwind background class for the bar, written out in full by the caller. */
  barClass?: string
  href?: string
}

/** Horizontal bars scaled to the largest count, with the count written next to each. */
export function BarList({ items, emptyLabel = 'No data' }: { items: BarItem[]; emptyLabel?: string }) {
  const max = Math.max(1, ...items.map((i) => i.count))
  if (items.length === 0) return <p className="py-4 text-center text-sm text-slate-500">{emptyLabel}</p>
  return (
    <ul className="space-y-2">
      {items.map((item) => {
        const row = (
          <>
            <div className="flex items-baseline justify-between gap-2 text-sm">
              <span className="truncate text-slate-700">{item.label}</span>
              <span className="font-mono text-xs tabular-nums text-slate-900">{item.count}</span>
            </div>
            <div className="mt-1 h-2 rounded-full bg-slate-100">
              <div
                className={`h-2 rounded-full ${item.barClass ?? 'bg-slate-500'}`}
                style={{ width: item.count === 0 ? 0 : `${Math.max(1.5, (item.count / max) * 100)}%` }}
              />
            </div>
          </>
        )
        return (
          <li key={item.key}>
            {item.href ? (
              <IntentLink href={item.href} className="-mx-1 block rounded px-1 py-0.5 hover:bg-slate-50">
                {row}
              </IntentLink>
            ) : (
              row
            )}
          </li>
        )
      })}
    </ul>
  )
}
