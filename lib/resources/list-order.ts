// The orders a resource list can be read in (`?sort=`), each a keyset over columns with an index or a
// small table behind them, and ending in the id so every row has one place. The cursor a page hands
// out holds that row's keys; it means something only with the same sort, and is checked as strictly
// as any cursor (lib/http/pagination.ts). Pure.
import { type Cursor, decodeCursor, decodeTimeCursor, encodeCursor, encodeTimeCursor } from '@/lib/http/pagination'

export const RESOURCE_SORTS = ['namespace', '-namespace', 'name', '-name', 'updated', '-updated'] as const
export type ResourceSort = (typeof RESOURCE_SORTS)[number]

interface OrderRow {
  id: string
  namespace: string
  name: string
  updatedAt: Date
}

export interface ListOrder {
  orderBy: object[]
  /** Prisma `where` for the rows after the cursor in this order. */
  after(cursor: string): object
  cursorOf(row: OrderRow): string
}

type Dir = 'asc' | 'desc'
const cmp = (dir: Dir) => (dir === 'asc' ? 'gt' : 'lt')

/** (first, second, id), all strings: namespace then name, or name then namespace. */
function byText(first: 'namespace' | 'name', dir: Dir): ListOrder {
  const second = first === 'namespace' ? 'name' : 'namespace'
  const op = cmp(dir)
  return {
    orderBy: [{ [first]: dir }, { [second]: dir }, { id: dir }],
    after(raw) {
      const c: Cursor = decodeCursor(raw)
      return {
        OR: [
          { [first]: { [op]: c[first] } },
          { [first]: c[first], [second]: { [op]: c[second] } },
          { [first]: c[first], [second]: c[second], id: { [op]: c.id } },
        ],
      }
    },
    cursorOf: (row) => encodeCursor({ namespace: row.namespace, name: row.name, id: row.id }),
  }
}

/** (updatedAt, id): oldest change first, or with `-updated` the newest. */
function byUpdate(dir: Dir): ListOrder {
  const op = cmp(dir)
  return {
    orderBy: [{ updatedAt: dir }, { id: dir }],
    after(raw) {
      const { at, id } = decodeTimeCursor(raw)
      return { OR: [{ updatedAt: { [op]: at } }, { updatedAt: at, id: { [op]: id } }] }
    },
    cursorOf: (row) => encodeTimeCursor(row.updatedAt, row.id),
  }
}

export function listOrder(sort: ResourceSort = 'namespace'): ListOrder {
  const dir: Dir = sort.startsWith('-') ? 'desc' : 'asc'
  const key = sort.replace(/^-/, '')
  if (key === 'updated') return byUpdate(dir)
  return byText(key as 'namespace' | 'name', dir)
}
