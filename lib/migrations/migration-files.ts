// The committed migrations as the runner sees them (docs/operations.md, "Migrations"): one directory
// per migration under prisma/migrations, `<timestamp>_<name>/migration.sql`, applied in name order.
import 'server-only'
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'

/** Written as the first line of a migration that PostgreSQL cannot run in a transaction (CREATE INDEX CONCURRENTLY). */
export const NO_TRANSACTION_MARK = '-- toolroom:no-transaction'

export interface MigrationFile {
  name: string
  sql: string
  /** SHA-256 of the file's bytes, hex: what Prisma recorded in `_prisma_migrations.checksum` too. */
  checksum: string
  transactional: boolean
}

/**
 * Checksums Prisma recorded for migrations whose text changed after release without changing what
 * they do: the function bodies spelled `;` as the escape `\073` for Prisma's statement splitter, and
 * now spell it `;` (E'' strings: same bodies in pg_proc). A database Prisma migrated from the old text
 * is adopted with these; nothing else is.
 */
export const PRISMA_ERA_CHECKSUMS: Readonly<Record<string, string>> = {
  '20261122000000_init': '4bcf42c746d0adde70c229beb86cd3b2c79a11428bdb1a8955905fb2c5ac770c',
  '20261122030000_calls_and_audit': '6b75ce5baa499728380272aec7927a830e45ba459198aa16b8ba8b92ba6fcebd',
  '20261122050000_gateway': 'a941f68461c684efd8bf31a61f6e50db77907412f76d844abdfdf3a1199a5c46',
  '20261122060000_call_stats': '541aa23baeb39d55a7d95fb8475a57c9e144719dc6dfa8886d825e138da5f085',
  '20261123194500_call_stats_by_resolved_tool': 'f0386a35dcd5adbb27d8a490f36e932b5034a5ae7f3c4a5e16557c41623f1d23',
  '20261124180000_rate_window_full': 'e39ca6fd7d65078556b41f6a89e94b212d46768057324b279a7fa1b8fb5b3e03',
}

const MIGRATION_NAME = /^\d{14}_[a-z0-9_]+$/

export function migrationChecksum(bytes: Buffer | string): string {
  return createHash('sha256').update(bytes).digest('hex')
}

/** Whether `recorded` (a checksum in a table of applied migrations) is the text of `migration`. */
export function sameMigration(migration: MigrationFile, recorded: string, { prismaEra = false } = {}): boolean {
  return recorded === migration.checksum || (prismaEra && PRISMA_ERA_CHECKSUMS[migration.name] === recorded)
}

/** The migrations under `directory`, in the order they apply; throws naming the entry that breaks the layout. */
export function readMigrations(directory: string): MigrationFile[] {
  const entries = fs.readdirSync(directory, { withFileTypes: true }).filter((entry) => entry.isDirectory())
  return entries
    .map((entry) => {
      if (!MIGRATION_NAME.test(entry.name))
        throw new Error(`${path.join(directory, entry.name)}: a migration directory is named <14-digit UTC timestamp>_<lower_snake_name>`)
      const file = path.join(directory, entry.name, 'migration.sql')
      if (!fs.existsSync(file)) throw new Error(`${file} is missing: each migration directory holds one migration.sql`)
      const bytes = fs.readFileSync(file)
      const sql = bytes.toString('utf8')
      return { name: entry.name, sql, checksum: migrationChecksum(bytes), transactional: sql.split('\n', 1)[0].trim() !== NO_TRANSACTION_MARK }
    })
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
}

/** The line of `sql` that PostgreSQL's error position (1-based, in characters) points at. */
export function lineAt(sql: string, position: number): number {
  return sql.slice(0, Math.max(0, position - 1)).split('\n').length
}
