export type Definition = [label: React.ReactNode, value: React.ReactNode]

/** Label/value pairs; pairs whose value is null or undefined are left out. */
export function DefinitionList({ items, columns = 2 }: { items: Definition[]; columns?: 1 | 2 | 3 }) {
  const shown = items.filter(([, v]) => v !== null && v !== undefined && v !== false)
  const grid = columns === 1 ? 'grid-cols-1' : columns === 2 ? 'sm:grid-cols-2' : 'sm:grid-cols-2 lg:grid-cols-3'
  return (
    <dl className={`grid grid-cols-1 gap-x-6 gap-y-3 ${grid}`}>
      {shown.map(([label, value], i) => (
        <div key={i} className="min-w-0">
          <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">{label}</dt>
          <dd className="mt-0.5 text-sm text-slate-900 [overflow-wrap:anywhere]">{value}</dd>
        </div>
      ))}
    </dl>
  )
}
