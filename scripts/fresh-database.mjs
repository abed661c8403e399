// Fresh, migrated databases for the test runner and the benchmarks: on the server DATABASE_URL names,
// or on an embedded PostgreSQL of their own.
import { spawn } from 'node:child_process'
import path from 'node:path'
import pg from 'pg'
import { startEmbeddedPostgres } from './embedded-postgres.mjs'
import { TSX_NODE_ARGS } from './tsx-node-args.mjs'

export function withDatabase(url, database) {
  const u = new URL(url)
  u.pathname = `/${database}`
  return u.toString()
}

/** Drops and creates `name` through the server of `adminUrl`; returns the new database's URL. */
export async function freshDatabase(adminUrl, name) {
  const client = new pg.Client({ connectionString: adminUrl })
  await client.connect()
  await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)
  await client.query(`CREATE DATABASE "${name}"`)
  await client.end()
  return withDatabase(adminUrl, name)
}

/**
 * Drops and creates `name` as a copy of the database `templateUrl` names (which nothing may be
 * connected to); returns the copy's URL.
 */
export async function copyOfDatabase(templateUrl, name) {
  const template = new URL(templateUrl).pathname.slice(1)
  const client = new pg.Client({ connectionString: withDatabase(templateUrl, 'postgres') })
  await client.connect()
  try {
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)
    await client.query(`CREATE DATABASE "${name}" TEMPLATE "${template}"`)
  } finally {
    await client.end()
  }
  return withDatabase(templateUrl, name)
}

/** Drops the databases whose names start with `prefix` (the integration files' copies), ending their sessions. */
export async function dropDatabasesNamed(adminUrl, prefix) {
  const client = new pg.Client({ connectionString: adminUrl })
  await client.connect()
  try {
    const { rows } = await client.query('SELECT datname FROM pg_database WHERE starts_with(datname, $1)', [prefix])
    for (const { datname } of rows) await client.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`)
  } finally {
    await client.end()
  }
}

/** Applies the committed migrations (scripts/migrate.ts, from source); rejects with its output when it fails. */
export function migrateDatabase(url) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...TSX_NODE_ARGS, 'scripts/migrate.ts'], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, DATABASE_URL: url, LOG_FORMAT: 'text' },
    })
    let output = ''
    child.stdout.on('data', (d) => (output += d))
    child.stderr.on('data', (d) => (output += d))
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`migrations failed (${code}):\n${output.trim()}`))))
  })
}

/**
 * A fresh, migrated database named `name` for a benchmark; `stop()` stops the embedded server, if any.
 * `reuse`: the database the last run left, migrated, instead (a benchmark's data kept for a second
 * measurement of the same data).
 */
export async function benchDatabase(name, { reuse = false } = {}) {
  const embedded = process.env.DATABASE_URL
    ? null
    : await startEmbeddedPostgres({
        dataDir: path.resolve('.data/pg17-bench'),
        port: Number(process.env.TOOLROOM_BENCH_PG_PORT ?? 55650),
        database: 'postgres',
      })
  try {
    const adminUrl = embedded ? embedded.url : withDatabase(process.env.DATABASE_URL, 'postgres')
    const url = reuse ? withDatabase(adminUrl, name) : await freshDatabase(adminUrl, name)
    await migrateDatabase(url)
    return { url, stop: async () => embedded?.stop() }
  } catch (e) {
    await embedded?.stop()
    throw e
  }
}
