// Driver adapter for the Wasm schema engine of the Prisma 6.19 CLI (prisma.migrate.config.ts).
import pg from 'pg'
import { PrismaPg } from '@prisma/adapter-pg'

// The engine introspects pg_catalog columns of type "char" (oid 18) and name (oid 19), which
// @prisma/adapter-pg cannot deserialize (Prisma bug 27403): report them as text / text[].
const TEXT_FOR_CATALOG_TYPES: Record<number, number> = { 18: 25, 19: 25, 1002: 1009, 1003: 1009 }
const Query = (pg as unknown as { Query: { prototype: { handleRowDescription: (msg: unknown) => unknown } } }).Query
const handleRowDescription = Query.prototype.handleRowDescription
Query.prototype.handleRowDescription = function (msg: { fields: { dataTypeID: number }[] }) {
  for (const field of msg.fields) field.dataTypeID = TEXT_FOR_CATALOG_TYPES[field.dataTypeID] ?? field.dataTypeID
  return handleRowDescription.call(this, msg)
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

  async connectToShadowDb() {
    const config = poolConfig(this.url)
    const name = `prisma_shadow_${process.pid}_${Date.now()}`
    const admin = new pg.Client(config)
    await admin.connect()
    await admin.query(`CREATE DATABASE "${name}"`)
    await admin.end()
    const adapter = await new PrismaPg({ ...config, database: name }).connect()
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
