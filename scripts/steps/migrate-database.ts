// Applying the committed migrations under prisma/migrations to DATABASE_URL (docs/operations.md,
// "Migrations"), as a step: dist/migrate.cjs runs it alone, dist/prepare-data.cjs before the data
// `npm start` writes. Loads no Prisma client: the image's `migrate` command starts fast.
import { config } from '@/lib/config'
import { applyMigrations } from '@/lib/migrations/apply-migrations'
import { logger } from '@/lib/observability/logger'
import { embeddedDatabaseUrl } from '../embedded-db-url.mjs'

/**
 * 0 when the database is at the newest migration; 1 (with the reason logged) otherwise. `directory`:
 * prisma/migrations, found by the entry (dist/*.cjs and scripts/*.ts are both one level below the
 * directory that holds prisma/). `quiet`: only a migration applied or adopted is told (as `npm start`
 * wants it), not each step or "none to apply".
 */
export async function migrateDatabase({ directory, quiet = false }: { directory: string; quiet?: boolean }): Promise<number> {
  const log = logger()
  try {
    const { applied, adopted } = await applyMigrations({
      databaseUrl: config().DATABASE_URL ?? embeddedDatabaseUrl(),
      directory,
      log: quiet ? undefined : (message) => log.info(message),
    })
    if (applied.length || adopted.length) log.info(`migrations: ${applied.length} applied, ${adopted.length} adopted from Prisma`)
    else if (!quiet) log.info('migrations: none to apply')
    return 0
  } catch (e) {
    log.error((e as Error).message)
    return 1
  }
}
