'use client'
import { Fragment, useState } from 'react'
import { Tr } from './table'

type RowAttributes = { [data: `data-${string}`]: string | undefined }

/**
 * Table rows that each open to their details, in a full-width row beneath; one is open at a time.
 * A click anywhere on a row opens or closes it, so the row's first cell holds an `ExpandToggle`
 * for keyboards and screen readers (its click reaches the row).
 */
export function ExpandableRows<T>({
  items,
  rowKey,
  rowAttributes,
  columnCount,
  details,
  children,
}: {
  items: T[]
  rowKey: (item: T) => string
  /** `data-*` attributes of an item's row, for tests to find it. */
  rowAttributes?: (item: T) => RowAttributes
  /** How many columns the details row spans. */
  columnCount: number
  details: (item: T) => React.ReactNode
  /** The cells of an item's row. */
  children: (item: T, expanded: boolean) => React.ReactNode
}) {
  const [open, setOpen] = useState<string | null>(null)
  return items.map((item) => {
    const key = rowKey(item)
    const expanded = open === key
    return (
      <Fragment key={key}>
        <Tr {...rowAttributes?.(item)} className="cursor-pointer hover:bg-slate-50" onClick={() => setOpen(expanded ? null : key)}>
          {children(item, expanded)}
        </Tr>
        {expanded && (
          <tr className="bg-slate-50">
            <td colSpan={columnCount} className="px-3 pb-3 pt-1">
              {details(item)}
            </td>
          </tr>
        )}
      </Fragment>
    )
  })
}

/** The button of an expandable row: a caret, then what names the row. */
export function ExpandToggle({
  expanded,
  label,
  className = 'inline-flex items-center gap-1.5',
  children,
}: {
  expanded: boolean
  /** The button's accessible name, where its text alone would not say which row it opens. */
  label?: string
  className?: string
  children: React.ReactNode
}) {
  return (
    <button type="button" aria-expanded={expanded} aria-label={label} className={className}>
      <DisclosureCaret open={expanded} />
      {children}
    </button>
  )
}

export function DisclosureCaret({ open }: { open: boolean }) {
  return (
    <span aria-hidden className="w-3 text-xs text-slate-400">
      {open ? '▾' : '▸'}
    </span>
  )
}
