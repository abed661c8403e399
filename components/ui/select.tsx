import { CONTROL, Field } from './form'

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
    <Field label={label}>
      <select value={value} onChange={(e) => onChange(e.target.value)} className={`${CONTROL} min-w-36`}>
        <option value="">{allLabel}</option>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </Field>
  )
}
