// The If-None-Match field (RFC 9110 §13.1.2) and the weak comparison it is judged by (§8.8.3.2): pure,
// for the route wrapper's conditional reads (conditional-read.ts).

/** An If-None-Match field: any current representation (`*`), or the tags the client holds. */
export type IfNoneMatch = { any: true } | { any: false; opaqueTags: string[] }

// entity-tag = [ "W/" ] DQUOTE *etagc DQUOTE, etagc = %x21 / %x23-7E / obs-text (RFC 9110 §8.8.3): no
// DQUOTE inside, but commas may be, so the list is read tag by tag rather than split on commas.
const ETAGC = '[\\x21\\x23-\\x7e\\x80-\\xff]*'
const ENTITY_TAG = new RegExp(`^(?:W/)?"(${ETAGC})"$`)
// One list member and what follows it: optional whitespace, the tag, then a comma or the end.
const MEMBER = new RegExp(`[ \\t]*(?:(?:W/)?"(${ETAGC})")?[ \\t]*(,|$)`, 'y')

/**
 * The parsed field, or null when it is absent or malformed: a malformed precondition is ignored (the
 * request is answered as if it had none), never an error, since no cache could be helped by a 400.
 */
export function parseIfNoneMatch(field: string | null): IfNoneMatch | null {
  if (field === null) return null
  if (field.trim() === '*') return { any: true }
  const opaqueTags: string[] = []
  MEMBER.lastIndex = 0
  while (MEMBER.lastIndex < field.length) {
    const member = MEMBER.exec(field)
    if (!member) return null
    // Empty list elements are allowed and ignored (RFC 9110 §5.6.1).
    if (member[1] !== undefined) opaqueTags.push(member[1])
    if (member[2] === '') break
  }
  return opaqueTags.length ? { any: false, opaqueTags } : null
}

/** Weak comparison (RFC 9110 §8.8.3.2), the one If-None-Match uses: the opaque parts are equal. */
export function matchesAny(condition: IfNoneMatch, etag: string): boolean {
  if (condition.any) return true
  const opaque = ENTITY_TAG.exec(etag)?.[1]
  return opaque !== undefined && condition.opaqueTags.includes(opaque)
}
