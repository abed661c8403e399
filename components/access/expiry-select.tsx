'use client'
import { CONTROL, Field } from '@/components/ui/form'

export interface ExpiryOption {
  label: string
  days: number | null
}

/** "Expires after" for a new credential; the value is a number of days or "never". */
export function ExpirySelect({ options, ...select }: { options: ExpiryOption[] } & React.SelectHTMLAttributes<HTMLSelectElement>) {
  return (
    <Field label="Expires after">
      <select {...select} className={CONTROL}>
        {options.map((o) => (
          <option key={o.label} value={o.days ?? 'never'}>
            {o.label}
          </option>
        ))}
      </select>
    </Field>
  )
}
