// How an approver reads an amount, a size or a duration: `1250000` minor units of EUR is
// "€12,500.00", of JPY "¥1,250,000", of KWD "KWD 1,250.000" (docs/design/approvals.md#summaries).
// Pure, and safe on hostile values: whatever is not what the unit expects is left to the caller's
// plain preview (null).

export const FIELD_UNITS = ['minor_currency', 'bytes', 'seconds', 'milliseconds'] as const
export type FieldUnit = (typeof FIELD_UNITS)[number]

const CURRENCY_CODE = /^[A-Za-z]{3}$/
// Fixed, so the same call reads the same to every approver, and the webhook and CLI agree with the portal.
const LOCALE = 'en-US'

/** `amount` minor units (cents, yen, fils) of `currency` (ISO 4217), with the currency's own decimals. */
export function formatMoney(amount: unknown, currency: unknown): string | null {
  const value = typeof amount === 'string' && /^-?\d{1,20}$/.test(amount) ? Number(amount) : amount
  if (typeof value !== 'number' || !Number.isSafeInteger(value)) return null
  if (typeof currency !== 'string' || !CURRENCY_CODE.test(currency)) return null
  let format: Intl.NumberFormat
  try {
    format = new Intl.NumberFormat(LOCALE, { style: 'currency', currency: currency.toUpperCase() })
  } catch {
    return null
  }
  const digits = format.resolvedOptions().maximumFractionDigits ?? 2
  // Integer arithmetic to the unit, so 1999 cents is 19.99 and not 19.990000000000002.
  const sign = value < 0 ? -1 : 1
  const abs = Math.abs(value)
  const scale = 10 ** digits
  const major = Math.trunc(abs / scale)
  const minor = abs % scale
  return format.format(sign * (major + minor / scale))
}

const BYTE_UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'] as const

export function formatBytes(bytes: unknown): string | null {
  if (typeof bytes !== 'number' || !Number.isFinite(bytes) || bytes < 0) return null
  let value = bytes
  let unit = 0
  while (value >= 1024 && unit < BYTE_UNITS.length - 1) {
    value /= 1024
    unit++
  }
  const shown = unit === 0 ? String(Math.round(value)) : value.toFixed(value < 10 ? 1 : 0).replace(/\.0$/, '')
  return `${shown} ${BYTE_UNITS[unit]}`
}

const DURATION_PARTS: Array<[string, number]> = [
  ['d', 86400],
  ['h', 3600],
  ['min', 60],
  ['s', 1],
]

/** `value` seconds (or milliseconds), as the two largest parts: "1 h 30 min", "1.5 s", "2 d 4 h". */
export function formatDuration(value: unknown, unit: 'seconds' | 'milliseconds' = 'seconds'): string | null {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) return null
  const seconds = unit === 'milliseconds' ? value / 1000 : value
  if (seconds < 1) return unit === 'milliseconds' ? `${Math.round(value)} ms` : `${seconds} s`
  if (seconds < 60) return `${Number(seconds.toFixed(seconds < 10 ? 1 : 0))} s`
  let rest = Math.round(seconds)
  const parts: string[] = []
  for (const [name, size] of DURATION_PARTS) {
    if (parts.length === 2) break
    const count = Math.floor(rest / size)
    if (count > 0 || parts.length > 0) {
      if (count > 0) parts.push(`${count} ${name}`)
      rest -= count * size
      if (parts.length > 0 && count === 0) break
    }
  }
  return parts.join(' ')
}

export function formatUnit(value: unknown, unit: FieldUnit, currency?: unknown): string | null {
  if (unit === 'minor_currency') return formatMoney(value, currency)
  if (unit === 'bytes') return formatBytes(value)
  return formatDuration(value, unit)
}
