// Idempotency keys from `sideEffects.idempotencyKeyTemplate` (joch: `"zendesk-{{ args.subject | hash }}"`).
// A placeholder is `{{ args.<path> }}` with an optional `| hash` (SHA-256, first 16 hex digits); a
// missing value renders empty, objects render as their JSON. Pure.
import 'server-only'
import { createHash } from 'node:crypto'
import { isObject } from '@/lib/json/unknown-values'
import { isStorableText } from '@/lib/storage/storable-text'

const PLACEHOLDER = /\{\{\s*args((?:\.[A-Za-z0-9_-]+)*)\s*(\|\s*hash\s*)?\}\}/g

export function renderIdempotencyKey(template: string, args: Record<string, unknown>): string {
  const key = template.replace(PLACEHOLDER, (_m, path: string, hash: string | undefined) => {
    let value: unknown = args
    for (const segment of path.split('.').filter(Boolean)) value = isObject(value) ? value[segment] : undefined
    const text = value === undefined || value === null ? '' : typeof value === 'string' ? value : JSON.stringify(value)
    return hash ? createHash('sha256').update(text).digest('hex').slice(0, 16) : text
  })
  // Arguments may carry text PostgreSQL cannot store (NUL, unpaired surrogates): such a key is kept as its hash.
  return isStorableText(key) ? key : `sha256:${createHash('sha256').update(key).digest('hex')}`
}

/** The key as stored: itself, or its SHA-256 when it would carry a redacted value into the log. */
export function storableKey(key: string, sensitive: Iterable<string>): string {
  for (const value of sensitive) if (value.length >= 4 && key.includes(value)) return `sha256:${createHash('sha256').update(key).digest('hex')}`
  return key
}
