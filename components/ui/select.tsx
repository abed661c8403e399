export interface SelectOption {
  value: string
  label: string
}

export function Select({
  label,
  value,
  onChange,
  options,
  allLabel = 'All',
}: {
  label: string
  value: string
  onChange: (value: string) => void
  options: SelectOption[]
  allLabel?: string
}) {
  return (
    <label className="flex flex-col gap-0.5 text-xs font-medium text-slate-600">
      {label}
      <select
        value={value}
        onChange={(e) => onChange(e.target.value)}
        className="h-8 min-w-36 rounded-md border border-slate-300 bg-white px-2 text-sm font-normal text-slate-900 focus:border-slate-500 focus:outline-none"
      >
        <option value="">{allLabel}</option>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </label>
  )
}
