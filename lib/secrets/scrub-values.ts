// Scrubbing values known to be sensitive (the secrets injected into an upstream request, the values
// `redactFields` masked) out of anything written about a call or a discovery run, wherever an
// upstream might have echoed them. Pure, and below its readers: the gateway's call records
// (lib/gateway/redact.ts) and discovery's run records both scrub with it.
export const REDACTED = '[REDACTED]'

const MIN_SCRUB_LENGTH = 4

/** `text` with every sensitive value replaced. */
export function scrubText(text: string, sensitive: Iterable<string>): string {
  let out = text
  for (const value of sensitive) if (value.length >= MIN_SCRUB_LENGTH && out.includes(value)) out = out.split(value).join(REDACTED)
  return out
}

/** A JSON value with every string that contains a sensitive value scrubbed (secrets echoed by an upstream). */
export function scrubTree(value: unknown, sensitive: ReadonlySet<string>): unknown {
  if (sensitive.size === 0) return value
  if (typeof value === 'string') return scrubText(value, sensitive)
  if (Array.isArray(value)) return value.map((v) => scrubTree(v, sensitive))
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {}
    for (const [k, v] of Object.entries(value)) out[scrubText(k, sensitive)] = scrubTree(v, sensitive)
    return out
  }
  return value
}
