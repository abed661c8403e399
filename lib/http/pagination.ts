// Opaque keyset cursors, stable under inserts and deletes, unlike offsets: over (namespace, name, id)
// for registry lists, over (a time, an id) for everything listed by when it happened.
import { AppError } from '@/lib/errors/app-error'
import { isUuid } from '@/lib/refs/uuid'

export interface Cursor {
  namespace: string
  name: string
  id: string
}

export const DEFAULT_PAGE_SIZE = 50
export const MAX_PAGE_SIZE = 500

export function encodeCursor(c: Cursor): string {
  return Buffer.from(JSON.stringify([c.namespace, c.name, c.id])).toString('base64url')
}

/**
 * A cursor is checked as closely as any other input before it reaches a query: every row it can
 * point after has a uuid id and names PostgreSQL can store (a cursor is only base64 anybody can
 * write, and a non-uuid id or a NUL made the query fail with a 500).
 */
export function decodeCursor(raw: string): Cursor {
  try {
    if (raw.length > 2048) throw notACursor()
    const value: unknown = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'))
    if (Array.isArray(value) && value.length === 3) {
      const [namespace, name, id] = value
      if ([namespace, name].every((v) => typeof v === 'string' && v.length <= 512 && !v.includes('\u0000')) && typeof id === 'string' && isUuid(id))
        return { namespace, name, id }
    }
  } catch {
    // fall through
  }
  throw notACursor()
}

const notACursor = () =>
  new AppError('BAD_REQUEST', 'query parameter "cursor" is not a cursor this API issued', [
    { field: 'cursor', rule: 'cursor', message: 'is not a cursor this API issued; pass nextCursor from the previous page' },
  ])

/**
 * A cursor over (a time, an id), the one cursor of every list ordered by when things happened
 * (discovery runs and changes, calls, approvals, agent credentials, the audit log). Its id is a uuid,
 * or for the audit log's serial ids a decimal PostgreSQL's bigint holds. Both parts are checked: a
 * forged cursor is a 400 naming `cursor`, never a query that fails.
 */
export interface TimeCursor {
  at: Date
  id: string
}

export type CursorId = 'uuid' | 'serial'

const SERIAL = /^\d{1,19}$/
const MAX_BIGINT = 9_223_372_036_854_775_807n

export function encodeTimeCursor(at: Date, id: string | bigint): string {
  return Buffer.from(JSON.stringify({ at: at.toISOString(), id: String(id) })).toString('base64url')
}

export function decodeTimeCursor(raw: string, idKind: CursorId = 'uuid'): TimeCursor {
  try {
    if (raw.length > 512) throw notACursor()
    const value: unknown = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'))
    const { at, id } = (value ?? {}) as { at?: unknown; id?: unknown }
    if (typeof at === 'string' && typeof id === 'string' && validId(id, idKind)) {
      const time = new Date(at)
      // Only the exact form encodeTimeCursor writes: a time PostgreSQL's timestamptz holds, no other text.
      if (!Number.isNaN(time.getTime()) && time.toISOString() === at && time.getUTCFullYear() >= 1 && time.getUTCFullYear() <= 9999) return { at: time, id }
    }
  } catch {
    // fall through
  }
  throw notACursor()
}

const validId = (id: string, kind: CursorId) => (kind === 'uuid' ? isUuid(id) : SERIAL.test(id) && BigInt(id) <= MAX_BIGINT)

/**
 * Prisma `where` for rows after the cursor in (`field`, id) order, newest first (`desc`) or oldest
 * first (`asc`). `id` as the id column holds it (a bigint for serial ids).
 */
export function afterTimeCursor(field: string, cursor: TimeCursor, order: 'asc' | 'desc', id: string | bigint = cursor.id) {
  const beyond = order === 'desc' ? 'lt' : 'gt'
  return { OR: [{ [field]: { [beyond]: cursor.at } }, { [field]: cursor.at, id: { [beyond]: id } }] }
}

/**
 * One page of rows fetched with `take: limit + 1`: the first `limit`, and the cursor after the last
 * of them when the extra row shows there are more.
 */
export function keysetPage<T>(rows: T[], limit: number, cursorAfter: (last: T) => string): { items: T[]; nextCursor: string | null } {
  const items = rows.slice(0, limit)
  const last = items[items.length - 1]
  return { items, nextCursor: rows.length > limit && last !== undefined ? cursorAfter(last) : null }
}
