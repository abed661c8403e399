'use client'
import { useEffect, useRef } from 'react'

/**
 * `fixed` keeps column widths identical across several tables of the same shape on one page.
 * Below 768 px every row becomes a card (app/globals.css) with each cell labelled by its column
 * header; `cards={false}` keeps a real table there (diffs, grids people read across).
 */
export function Table({
  children,
  className = '',
  fixed = false,
  cards = true,
}: {
  children: React.ReactNode
  className?: string
  fixed?: boolean
  cards?: boolean
}) {
  const ref = useRef<HTMLTableElement>(null)
  useEffect(() => {
    const table = ref.current
    if (!table || !cards) return
    labelCells(table)
    // Rows come and go (pages load, polls): label the new ones too. Only attributes change here, so
    // the observer (child lists) never wakes itself.
    const observer = new MutationObserver(() => labelCells(table))
    observer.observe(table, { childList: true, subtree: true })
    return () => observer.disconnect()
  }, [cards])
  return (
    <div className={`overflow-x-auto ${className}`}>
      <table ref={ref} data-cards={cards ? '' : undefined} className={`w-full border-collapse text-left text-sm ${fixed ? 'table-fixed' : ''}`}>
        {children}
      </table>
    </div>
  )
}

/** Copies each header's text (or its `data-label`) into the cells of its column, colspans counted. */
function labelCells(table: HTMLTableElement) {
  const headers: string[] = []
  for (const th of table.tHead?.rows[0]?.cells ?? []) {
    const label = (th.dataset.label ?? th.textContent ?? '').trim()
    for (let i = 0; i < th.colSpan; i++) headers.push(label)
  }
  for (const body of table.tBodies)
    for (const row of body.rows) {
      let column = 0
      for (const cell of row.cells) {
        // The first column names the row: it heads the card, unlabelled. So do cells across columns.
        const label = column === 0 || cell.colSpan > 1 ? '' : (headers[column] ?? '')
        if (cell.dataset.label !== label) cell.dataset.label = label
        column += cell.colSpan
      }
    }
}

export function THead({ children }: { children: React.ReactNode }) {
  return <thead className="border-b border-slate-200 bg-slate-50 text-xs uppercase tracking-wide text-slate-500">{children}</thead>
}

export type SortDirection = 'asc' | 'desc'

/**
 * A header cell. With `sort`, the header is a button that sorts by its column: `direction` is the
 * column's current order (undefined: the list is sorted by another column); `aria-sort` tells
 * screen readers.
 */
export function Th({
  children,
  className = '',
  sort,
}: {
  children?: React.ReactNode
  className?: string
  sort?: { direction?: SortDirection; onSort: () => void; label: string }
}) {
  if (!sort)
    return (
      <th scope="col" className={`px-3 py-2 font-medium ${className}`}>
        {children}
      </th>
    )
  const arrow = sort.direction === 'asc' ? '▲' : sort.direction === 'desc' ? '▼' : '↕'
  return (
    <th
      scope="col"
      data-label={sort.label}
      aria-sort={sort.direction === 'asc' ? 'ascending' : sort.direction === 'desc' ? 'descending' : 'none'}
      className={`px-3 py-2 font-medium ${className}`}
    >
      <button
        type="button"
        onClick={sort.onSort}
        className="-mx-1 inline-flex items-center gap-1 rounded px-1 uppercase tracking-wide hover:bg-slate-200 hover:text-slate-900"
      >
        {children}
        <span aria-hidden className={`text-[10px] ${sort.direction ? 'text-slate-700' : 'text-slate-400'}`}>
          {arrow}
        </span>
      </button>
    </th>
  )
}

export function TBody({ children }: { children: React.ReactNode }) {
  return <tbody className="divide-y divide-slate-100">{children}</tbody>
}

export function Tr({ children, className = '', ...rest }: React.HTMLAttributes<HTMLTableRowElement> & { [data: `data-${string}`]: string | undefined }) {
  return (
    <tr className={`align-baseline ${className}`} {...rest}>
      {children}
    </tr>
  )
}

/** Long unbroken names (ids, namespaces, URLs) wrap inside their own column instead of running over the next. */
export function Td({ children, className = '', ...rest }: React.TdHTMLAttributes<HTMLTableCellElement>) {
  return (
    <td className={`px-3 py-2 [overflow-wrap:anywhere] ${className}`} {...rest}>
      {children}
    </td>
  )
}
