// Applies the committed migrations under prisma/migrations to DATABASE_URL (docs/operations.md,
// "Migrations"): `npm run db:deploy`, the image's `migrate` command and `npm start` run it compiled
// (dist/migrate.cjs); tests and benchmarks run it from source. Exits 1 naming what failed.
import '@/lib/check-config'
import path from 'node:path'
import { config } from '@/lib/config'
import { applyMigrations } from '@/lib/migrations/apply-migrations'
import { logger } from '@/lib/observability/logger'
import { embeddedDatabaseUrl } from './embedded-db-url.mjs'

// dist/migrate.cjs and scripts/migrate.ts are both one level below the directory that holds prisma/.
const directory = path.join(__dirname, '..', 'prisma', 'migrations')
const log = logger()

applyMigrations({ databaseUrl: config().DATABASE_URL ?? embeddedDatabaseUrl(), directory, log: (message) => log.info(message) })
  .then(({ applied, adopted }) => {
    log.info(applied.length || adopted.length ? `migrations: ${applied.length} applied, ${adopted.length} adopted from Prisma` : 'migrations: none to apply')
    return 0
  })
  .catch((e: Error) => {
    log.error(e.message)
    return 1
  })
  .then((code) => {
    process.exitCode = code
  })
