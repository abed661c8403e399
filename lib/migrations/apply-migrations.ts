// Applies the committed migrations (docs/operations.md, "Migrations"): under an advisory lock, each
// pending one in its own transaction together with its row in toolroom_migrations, after every
// applied one has been checked against its file. A database that Prisma migrated (_prisma_migrations)
// has what Prisma applied adopted first, by name and checksum, so nothing is run twice.
import 'server-only'
import pg from 'pg'
import { lineAt, type MigrationFile, readMigrations, sameMigration } from './migration-files'

/** One key for every process that migrates: a second one waits on it, then finds nothing to do. */
export const MIGRATION_LOCK_KEY = 2_026_112_207_403n
export const MIGRATIONS_TABLE = 'toolroom_migrations'

export interface MigrationRun {
  /** Applied now, in order. */
  applied: string[]
  /** Found applied by Prisma and recorded as applied, without running them. */
  adopted: string[]
  /** Recorded as applied but not among the files: a database ahead of this release. */
  unknown: string[]
}

export interface ApplyOptions {
  databaseUrl: string
  directory: string
  log?: (message: string) => void
}

/** A migration that PostgreSQL refused: its transaction was rolled back and it is not recorded. */
export class MigrationFailed extends Error {
  constructor(
    readonly migration: string,
    cause: unknown,
    line: number | undefined,
  ) {
    const reason = cause instanceof Error ? cause.message : String(cause)
    super(`migration ${migration} failed${line ? ` at line ${line} of its migration.sql` : ''}: ${reason}`, { cause })
  }
}

export async function applyMigrations({ databaseUrl, directory, log = () => {} }: ApplyOptions): Promise<MigrationRun> {
  const migrations = readMigrations(directory)
  const client = new pg.Client({ connectionString: databaseUrl })
  await client.connect()
  try {
    await lock(client, log)
    try {
      await client.query(`CREATE TABLE IF NOT EXISTS ${MIGRATIONS_TABLE} (
        name text PRIMARY KEY,
        checksum text NOT NULL,
        applied_at timestamptz NOT NULL DEFAULT now(),
        adopted_from text
      )`)
      const adopted = await adoptPrismaHistory(client, migrations, log)
      const recorded = await appliedChecksums(client)
      const unknown = [...recorded.keys()].filter((name) => !migrations.some((m) => m.name === name))
      if (unknown.length) log(`the database has migrations this release does not know (a newer release applied them): ${unknown.join(', ')}`)
      for (const migration of migrations) {
        const checksum = recorded.get(migration.name)
        if (checksum !== undefined && !sameMigration(migration, checksum)) throw editedMigration(migration, checksum)
      }
      const applied: string[] = []
      for (const migration of migrations.filter((m) => !recorded.has(m.name))) {
        await apply(client, migration)
        applied.push(migration.name)
        log(`applied ${migration.name}`)
      }
      return { applied, adopted, unknown }
    } finally {
      // Ending the session releases the lock too, should this fail on a broken connection.
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => {})
    }
  } finally {
    await client.end()
  }
}

async function lock(client: pg.Client, log: (message: string) => void) {
  const { rows } = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1) AS locked', [MIGRATION_LOCK_KEY])
  if (rows[0].locked) return
  log('another process is applying migrations: waiting for it')
  await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY])
}

async function appliedChecksums(client: pg.Client): Promise<Map<string, string>> {
  const { rows } = await client.query<{ name: string; checksum: string }>(`SELECT name, checksum FROM ${MIGRATIONS_TABLE}`)
  return new Map(rows.map((row) => [row.name, row.checksum]))
}

async function apply(client: pg.Client, migration: MigrationFile) {
  const record = () => client.query(`INSERT INTO ${MIGRATIONS_TABLE} (name, checksum) VALUES ($1, $2)`, [migration.name, migration.checksum])
  // No parameters: pg sends the file as one simple query, which may hold many statements.
  if (!migration.transactional) {
    // Outside a transaction, one statement (PostgreSQL runs a multi-statement string as one implicit
    // transaction, which CREATE INDEX CONCURRENTLY refuses); recorded once it has succeeded.
    await run(client, migration)
    await record()
    return
  }
  await client.query('BEGIN')
  try {
    await run(client, migration)
    await record()
    await client.query('COMMIT')
  } catch (e) {
    await client.query('ROLLBACK')
    throw e
  }
}

async function run(client: pg.Client, migration: MigrationFile) {
  try {
    await client.query(migration.sql)
  } catch (e) {
    const position = Number((e as { position?: string }).position)
    throw new MigrationFailed(migration.name, e, Number.isFinite(position) && position > 0 ? lineAt(migration.sql, position) : undefined)
  }
}

function editedMigration(migration: MigrationFile, recorded: string): Error {
  return new Error(
    `migration ${migration.name} was applied with checksum ${recorded}, but its migration.sql now has ${migration.checksum}: ` +
      'an applied migration must not change (put the change in a new migration, or restore the file as it was applied)',
  )
}

/**
 * Records as applied what Prisma's `migrate deploy` applied (finished, not rolled back), once each,
 * after checking each against its file. A migration Prisma started and never finished stops everything:
 * the database is in a state no migration describes.
 */
async function adoptPrismaHistory(client: pg.Client, migrations: MigrationFile[], log: (message: string) => void): Promise<string[]> {
  const { rows: present } = await client.query<{ found: boolean }>("SELECT to_regclass('_prisma_migrations') IS NOT NULL AS found")
  if (!present[0].found) return []
  const { rows } = await client.query<{ migration_name: string; checksum: string; finished_at: Date | null; rolled_back_at: Date | null }>(
    `SELECT p.migration_name, p.checksum, p.finished_at, p.rolled_back_at FROM _prisma_migrations p
      WHERE NOT EXISTS (SELECT 1 FROM ${MIGRATIONS_TABLE} t WHERE t.name = p.migration_name)
      ORDER BY p.started_at`,
  )
  const failed = rows.filter((row) => row.finished_at === null && row.rolled_back_at === null)
  if (failed.length)
    throw new Error(
      `Prisma recorded migration ${failed[0].migration_name} as started but never finished: repair the database by hand and mark it ` +
        'finished or rolled back in _prisma_migrations before upgrading (docs/operations.md, "Upgrades")',
    )
  const adopted: string[] = []
  await client.query('BEGIN')
  try {
    for (const row of rows.filter((r) => r.finished_at !== null && r.rolled_back_at === null)) {
      if (adopted.includes(row.migration_name)) continue
      const migration = migrations.find((m) => m.name === row.migration_name)
      if (!migration) {
        log(`Prisma applied ${row.migration_name}, which this release does not know: not adopted`)
        continue
      }
      if (!sameMigration(migration, row.checksum, { prismaEra: true })) throw editedMigration(migration, row.checksum)
      await client.query(`INSERT INTO ${MIGRATIONS_TABLE} (name, checksum, applied_at, adopted_from) VALUES ($1, $2, $3, '_prisma_migrations')`, [
        migration.name,
        migration.checksum,
        row.finished_at,
      ])
      adopted.push(migration.name)
    }
    await client.query('COMMIT')
  } catch (e) {
    await client.query('ROLLBACK')
    throw e
  }
  if (adopted.length) log(`adopted ${adopted.length} migrations that Prisma applied: ${adopted.join(', ')}`)
  return adopted
}
