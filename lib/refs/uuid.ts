// Resources are addressed by id or by name, and an address shaped like a UUID is an id (README, "How
// references and precedence work"): every reader of an address, cursor or call id asks here, so the
// shape that tells them apart is written once. Pure; the portal uses it too.

const UUID_SHAPE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** True when `text` is a UUID in its canonical 8-4-4-4-12 hex form, in either case. */
export function isUuid(text: string): boolean {
  return UUID_SHAPE.test(text)
}
