'use client'
import { FIELD, LABEL } from './form-styles'

export interface ExpiryOption {
  label: string
  days: number | null
}

/** "Expires after" for a new credential; the value is a number of days or "never". */
export function ExpirySelect({ options, ...select }: { options: ExpiryOption[] } & React.SelectHTMLAttributes<HTMLSelectElement>) {
  return (
    <label className={LABEL}>
      Expires after
      <select {...select} className={FIELD}>
        {options.map((o) => (
          <option key={o.label} value={o.days ?? 'never'}>
            {o.label}
          </option>
        ))}
      </select>
    </label>
  )
}
