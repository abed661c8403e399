// The API's keyset cursors (lib/http/pagination.ts): the resource cursor and the one time cursor of
// every list ordered by when things happened, each checked before it reaches a query.
import { describe, expect, it } from 'vitest'
import { decodeCursor, decodeTimeCursor, encodeCursor, encodeTimeCursor, keysetPage, afterTimeCursor } from '@/lib/http/pagination'

const ID = '0b9e6a52-3b7a-4c1e-9d8f-2a6b5c4d3e2f'
const b64 = (value: unknown) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url')
const refusedAsCursor = expect.objectContaining({ code: 'BAD_REQUEST', errors: [expect.objectContaining({ field: 'cursor', rule: 'cursor' })] })

describe('the time cursor', () => {
  it('round-trips a time with a uuid, and with a serial id up to bigint', () => {
    const at = new Date('2026-11-24T12:34:56.789Z')
    expect(decodeTimeCursor(encodeTimeCursor(at, ID))).toEqual({ at, id: ID })
    expect(decodeTimeCursor(encodeTimeCursor(at, 9_223_372_036_854_775_807n), 'serial')).toEqual({ at, id: '9223372036854775807' })
  })

  it.each([
    ['not base64 JSON', 'not-a-cursor'],
    ['empty', ''],
    ['a resource cursor', encodeCursor({ namespace: 'default', name: 'alpha', id: ID })],
    ['the old time-in-the-namespace-slot form', b64(['2026-01-01T00:00:00.000Z', '', ID])],
    ['a time that is no time', b64({ at: 'yesterday', id: ID })],
    ['a time in another form', b64({ at: '2026-01-01T00:00:00Z', id: ID })],
    ['a time with NUL', b64({ at: '2026-01-01T00:00:00.000Z\u0000', id: ID })],
    ['an id that is no uuid', b64({ at: '2026-01-01T00:00:00.000Z', id: 'x' })],
    ['an id that is a number', b64({ at: '2026-01-01T00:00:00.000Z', id: 42 })],
    ['null', b64(null)],
    ['too long', 'a'.repeat(600)],
  ])('refuses %s with a 400 naming the cursor', (_, raw) => expect(() => decodeTimeCursor(raw)).toThrow(refusedAsCursor))

  it.each([
    ['a uuid where serial ids are listed', ID],
    ['a negative id', '-1'],
    ['an id past bigint', '9223372036854775808'],
    ['an id with SQL', '1;drop'],
  ])('refuses %s for serial ids', (_, id) => expect(() => decodeTimeCursor(b64({ at: '2026-01-01T00:00:00.000Z', id }), 'serial')).toThrow(refusedAsCursor))

  it('seeks past the cursor in either order', () => {
    const cursor = { at: new Date('2026-01-01T00:00:00.000Z'), id: ID }
    expect(afterTimeCursor('startedAt', cursor, 'desc')).toEqual({ OR: [{ startedAt: { lt: cursor.at } }, { startedAt: cursor.at, id: { lt: ID } }] })
    expect(afterTimeCursor('requestedAt', cursor, 'asc')).toEqual({ OR: [{ requestedAt: { gt: cursor.at } }, { requestedAt: cursor.at, id: { gt: ID } }] })
  })
})

describe('the resource cursor', () => {
  it('round-trips, and refuses a time cursor', () => {
    expect(decodeCursor(encodeCursor({ namespace: 'default', name: 'alpha', id: ID }))).toEqual({ namespace: 'default', name: 'alpha', id: ID })
    expect(() => decodeCursor(encodeTimeCursor(new Date(), ID))).toThrow(refusedAsCursor)
  })
})

describe('keyset pages', () => {
  it('gives the first page and a cursor after its last row only when there are more', () => {
    expect(keysetPage([1, 2, 3], 2, (n) => `after ${n}`)).toEqual({ items: [1, 2], nextCursor: 'after 2' })
    expect(keysetPage([1, 2], 2, (n) => `after ${n}`)).toEqual({ items: [1, 2], nextCursor: null })
    expect(keysetPage([], 2, (n) => `after ${n}`)).toEqual({ items: [], nextCursor: null })
  })
})
