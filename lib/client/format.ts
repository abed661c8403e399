// Display formatting shared by the pages.

/** `sha256:1111…1111` style: enough to recognise, short enough for a table cell. */
export function shortDigest(digest: string | null | undefined, keep = 12): string {
  if (!digest) return '—'
  const [algo, hex] = digest.includes(':') ? digest.split(':', 2) : ['', digest]
  return `${algo ? `${algo}:` : ''}${hex.length > keep ? hex.slice(0, keep) + '…' : hex}`
}

/** The digest pinned in an image reference (`repo@sha256:…`), if any. */
export function digestOfImage(image: string | undefined): string | null {
  const at = image?.lastIndexOf('@sha256:') ?? -1
  return at === -1 ? null : image!.slice(at + 1)
}

/** Image reference with the digest shortened, for headers. */
export function shortImage(image: string | undefined): string {
  if (!image) return '—'
  const at = image.lastIndexOf('@sha256:')
  return at === -1 ? image : `${image.slice(0, at)}@${shortDigest(image.slice(at + 1))}`
}

const relative = new Intl.RelativeTimeFormat('en', { numeric: 'auto' })
const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
  ['second', 1],
]

export function timeAgo(iso: string | null | undefined, now = Date.now()): string {
  if (!iso) return 'never'
  const seconds = Math.round((new Date(iso).getTime() - now) / 1000)
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size || unit === 'second') return relative.format(Math.round(seconds / size), unit)
  }
  return iso
}

// toLocaleString with options builds a new formatter on every call, which costs more than the
// formatting; lists print hundreds of dates.
const dateTimeFormats = new Map<string, Intl.DateTimeFormat>()
const zoneNameFormats = new Map<string, Intl.DateTimeFormat>()

function cached(cache: Map<string, Intl.DateTimeFormat>, key: string, make: () => Intl.DateTimeFormat) {
  let format = cache.get(key)
  if (!format) cache.set(key, (format = make()))
  return format
}

/**
 * "23 Nov 2026, 14:05 CET": always with its zone, since approvers, operators and the server rarely
 * share one. In the browser's zone by default, named by its short name (which can differ by date:
 * CET, CEST); in `timeZone` when given, named by that id ("… UTC", "… Pacific/Auckland").
 */
export function dateTime(iso: string | null | undefined, timeZone?: string): string {
  if (!iso) return '—'
  const key = timeZone ?? ''
  const format = cached(dateTimeFormats, key, () => new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone }))
  const date = new Date(iso)
  if (Number.isNaN(date.getTime())) return iso
  const text = format.format(date)
  return `${text} ${timeZone ?? zoneName(date)}`
}

/** The short name of the local zone at that instant ("CET", "GMT+13"). */
export function zoneName(date: Date, timeZone?: string): string {
  const format = cached(zoneNameFormats, timeZone ?? '', () => new Intl.DateTimeFormat('en-GB', { timeZoneName: 'short', timeZone }))
  return format.formatToParts(date).find((p) => p.type === 'timeZoneName')?.value ?? 'local time'
}

/** Above this a failure rate is shown in red wherever it appears: one call in twenty failing is worth a look. */
const HIGH_FAILURE_RATE = 0.05

export const isHighFailureRate = (rate: number | null | undefined): boolean => (rate ?? 0) > HIGH_FAILURE_RATE

export function percent(rate: number | null | undefined): string {
  if (rate === null || rate === undefined) return '—'
  return `${(rate * 100).toFixed(rate < 0.01 && rate > 0 ? 2 : 1)}%`
}

const counts = new Intl.NumberFormat('en-US')

export function count(n: number): string {
  return counts.format(n)
}

export function humanize(value: string): string {
  return value.replace(/_/g, ' ')
}

/** A length of time: "18 ms", "5.1 s", "2 min 5 s". */
export function duration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return '—'
  if (ms < 1000) return `${Math.round(ms)} ms`
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`
  const minutes = Math.floor(ms / 60_000)
  const seconds = Math.round((ms % 60_000) / 1000)
  return seconds ? `${minutes} min ${seconds} s` : `${minutes} min`
}

/** The time between two instants, or "—" while the second is not there yet. */
export function between(startIso: string | null | undefined, endIso: string | null | undefined): string {
  if (!startIso || !endIso) return '—'
  return duration(new Date(endIso).getTime() - new Date(startIso).getTime())
}

/** An upstream OAuth client (`auth.oauth2`) in one line: grant, client, server, scopes, resource. Never a secret. */
export function describeOAuth2Client(oauth2: {
  grantType: string
  clientId: string
  issuer?: string
  tokenUrl?: string
  scopes?: string[]
  resource?: string
}): string {
  return [
    `${oauth2.grantType} as ${oauth2.clientId} at ${oauth2.issuer ?? oauth2.tokenUrl}`,
    oauth2.scopes?.length ? `scopes ${oauth2.scopes.join(' ')}` : null,
    oauth2.resource ? `resource ${oauth2.resource}` : null,
  ]
    .filter(Boolean)
    .join(' · ')
}
