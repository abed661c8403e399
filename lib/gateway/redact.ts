// Masking before anything about a call is written: `observability.redactFields` paths
// (`args.body`, `result.user.email`, `args.items[*].token`) are replaced, and every value masked that
// way, together with the secrets injected into the upstream request, is also scrubbed out of free text
// (error messages, idempotency keys) where an upstream might have echoed it (lib/secrets/scrub-values.ts).
import { REDACTED, scrubText } from '@/lib/secrets/scrub-values'

export interface Redaction {
  /** Paths as written in `redactFields`, split: `args.items[*].token` → ['args', 'items', '*', 'token']. */
  paths: string[][]
}

export function parseRedactFields(fields: readonly string[] | undefined): Redaction {
  return {
    paths: (fields ?? []).map((f) =>
      f
        .replace(/\[\*\]/g, '.*')
        .split('.')
        .filter(Boolean),
    ),
  }
}

/** A copy of `value` (rooted at `root`, `args` or `result`) with the matching paths masked; the masked values are added to `found`. */
export function redactTree(root: 'args' | 'result', value: unknown, redaction: Redaction, found: Set<string>): unknown {
  const paths = redaction.paths.filter((p) => p[0] === root).map((p) => p.slice(1))
  if (paths.length === 0) return value
  return maskPaths(value, paths, found)
}

function maskPaths(value: unknown, paths: string[][], found: Set<string>): unknown {
  if (paths.some((p) => p.length === 0)) {
    collectStrings(value, found)
    return REDACTED
  }
  if (Array.isArray(value)) {
    const rest = paths.filter((p) => p[0] === '*').map((p) => p.slice(1))
    return rest.length ? value.map((item) => maskPaths(item, rest, found)) : value
  }
  if (typeof value !== 'object' || value === null) return value
  const out: Record<string, unknown> = {}
  for (const [key, child] of Object.entries(value)) {
    const rest = paths.filter((p) => p[0] === key || p[0] === '*').map((p) => p.slice(1))
    out[key] = rest.length ? maskPaths(child, rest, found) : child
  }
  return out
}

function collectStrings(value: unknown, found: Set<string>) {
  if (typeof value === 'string' || typeof value === 'number') found.add(String(value))
  else if (Array.isArray(value)) value.forEach((v) => collectStrings(v, found))
  else if (typeof value === 'object' && value !== null) Object.values(value).forEach((v) => collectStrings(v, found))
}

/** Values shorter than this are not scrubbed from free text: masking "1" everywhere would wreck messages without protecting anything. */
/** How much of an upstream's reply a call record keeps: enough to read the error, not a copy of the answer. */
export const MAX_UPSTREAM_EXCERPT = 2000

/**
 * What an upstream answered with its error, as the call record keeps it: every sensitive value
 * scrubbed (also as it reads inside JSON strings and URLs, where an echo puts it), and only then cut
 * to MAX_UPSTREAM_EXCERPT characters, so a secret that straddles the cut leaves no piece behind.
 */
export function upstreamExcerpt(reply: string | null | undefined, sensitive: Iterable<string>): string | null {
  if (!reply) return null
  const forms = new Set<string>()
  let longest = 0
  for (const value of sensitive) {
    for (const form of [value, JSON.stringify(value).slice(1, -1), encodeURIComponent(value)]) {
      forms.add(form)
      longest = Math.max(longest, form.length)
    }
  }
  const scrubbed = scrubText(reply.slice(0, MAX_UPSTREAM_EXCERPT + longest), forms)
  if (scrubbed.length <= MAX_UPSTREAM_EXCERPT) return scrubbed
  // Cut on a character boundary: half a surrogate pair would be stored as U+FFFD.
  const end = /[\ud800-\udbff]/.test(scrubbed[MAX_UPSTREAM_EXCERPT - 1]) ? MAX_UPSTREAM_EXCERPT - 1 : MAX_UPSTREAM_EXCERPT
  return `${scrubbed.slice(0, end)}…`
}
