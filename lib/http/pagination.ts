// Opaque keyset cursors over (namespace, name, id): stable under inserts and deletes, unlike offsets.
import { AppError } from '@/lib/errors/app-error'

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
      if ([namespace, name].every((v) => typeof v === 'string' && v.length <= 512 && !v.includes('\u0000')) && typeof id === 'string' && UUID.test(id))
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

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** A cursor over (a time, a uuid id), for lists ordered by when things happened. */
export function encodeTimeCursor(at: Date, id: string): string {
  return encodeCursor({ namespace: at.toISOString(), name: '', id })
}

export function decodeTimeCursor(raw: string): { at: Date; id: string } {
  const { namespace, id } = decodeCursor(raw)
  const at = new Date(namespace)
  if (Number.isNaN(at.getTime()) || !UUID.test(id)) throw notACursor()
  return { at, id }
}

/** Prisma `where` for rows strictly after the cursor in (namespace, name, id) order. */
export function afterCursor(c: Cursor) {
  return {
    OR: [
      { namespace: { gt: c.namespace } },
      { namespace: c.namespace, name: { gt: c.name } },
      { namespace: c.namespace, name: c.name, id: { gt: c.id } },
    ],
  }
}
