// Driver adapter for the Wasm schema engine of the Prisma 6.19 CLI (prisma.migrate.config.ts).
import pg from 'pg'
import { PrismaPg } from '@prisma/adapter-pg'

// The engine introspects pg_catalog columns of type "char" (oid 18) and name (oid 19), which
// @prisma/adapter-pg cannot deserialize (Prisma bug 27403): report them as text / text[].
const CATALOG_CHAR = 18
const TEXT_FOR_CATALOG_TYPES: Record<number, number> = { [CATALOG_CHAR]: 25, 19: 25, 1002: 1009, 1003: 1009 }
interface CatalogField {
  dataTypeID: number
  /** It was a "char" column before it was reported as text. */
  catalogChar?: boolean
}
const Query = (pg as unknown as { Query: { prototype: { handleRowDescription: (msg: unknown) => unknown } } }).Query
const handleRowDescription = Query.prototype.handleRowDescription
Query.prototype.handleRowDescription = function (msg: { fields: CatalogField[] }) {
  for (const field of msg.fields) {
    if (field.dataTypeID === CATALOG_CHAR) field.catalogChar = true
    field.dataTypeID = TEXT_FOR_CATALOG_TYPES[field.dataTypeID] ?? field.dataTypeID
  }
  return handleRowDescription.call(this, msg)
}

// The engine reads some "char" columns as characters, not text (pg_constraint.contype, in the query
// that finds CHECK constraints, panics as text): the adapter hands those columns over as Character
// (ColumnTypeEnum.Character of @prisma/driver-adapter-utils), as the engine's own driver would.
const CHARACTER_COLUMN = 6
type Queryable = Awaited<ReturnType<PrismaPg['connect']>>
type ResultSet = Awaited<ReturnType<Queryable['queryRaw']>>
// A script of several statements answers with one result per statement, and no fields of its own.
type PerformIO = (query: unknown) => Promise<{ fields?: CatalogField[] }>

function readCatalogCharsAsCharacters<T extends Queryable>(queryable: T): T {
  const target = queryable as T & { performIO: PerformIO }
  const performIO = target.performIO.bind(target)
  const queryRaw = target.queryRaw.bind(target)
  const charColumns = new WeakMap<object, boolean[]>()
  target.performIO = async (query) => {
    const result = await performIO(query)
    if (result.fields)
      charColumns.set(
        query as object,
        result.fields.map((field) => field.catalogChar === true),
      )
    return result
  }
  target.queryRaw = async (query): Promise<ResultSet> => {
    const set = await queryRaw(query)
    const chars = charColumns.get(query)
    return chars ? { ...set, columnTypes: set.columnTypes.map((type, i) => (chars[i] ? CHARACTER_COLUMN : type) as typeof type) } : set
  }
  return queryable
}

function poolConfig(url: string): pg.PoolConfig {
  const u = new URL(url)
  return {
    host: u.hostname,
    port: Number(u.port || 5432),
    user: decodeURIComponent(u.username),
    password: u.password ? decodeURIComponent(u.password) : undefined,
    database: u.pathname.slice(1) || 'postgres',
    // The CLI never ends the adapter's pool; without this it waits out pg's idle timeout.
    allowExitOnIdle: true,
  }
}

// connectToShadowDb of @prisma/adapter-pg ignores the database override when a connection string is
// given and drops the shadow database before closing its pool: create and drop it here instead.
export class MigratePg extends PrismaPg {
  constructor(private readonly url: string) {
    super(poolConfig(url))
  }

  async connect() {
    return readCatalogCharsAsCharacters(await super.connect())
  }

  async connectToShadowDb() {
    const config = poolConfig(this.url)
    const name = `prisma_shadow_${process.pid}_${Date.now()}`
    const admin = new pg.Client(config)
    await admin.connect()
    await admin.query(`CREATE DATABASE "${name}"`)
    await admin.end()
    const adapter = readCatalogCharsAsCharacters(await new PrismaPg({ ...config, database: name }).connect())
    const dispose = adapter.dispose.bind(adapter)
    adapter.dispose = async () => {
      await dispose()
      const client = new pg.Client(config)
      await client.connect()
      await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)
      await client.end()
    }
    return adapter
  }
}
