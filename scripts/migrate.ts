// Applies the committed migrations under prisma/migrations to DATABASE_URL (docs/operations.md,
// "Migrations"): `npm run db:deploy` and the image's `migrate` command run it compiled
// (dist/migrate.cjs); tests and benchmarks run it from source; `npm start` runs the same step in
// dist/prepare-data.cjs. Exits 1 naming what failed.
import '@/lib/check-config'
import path from 'node:path'
import { migrateDatabase } from './steps/migrate-database'

void migrateDatabase({ directory: path.join(__dirname, '..', 'prisma', 'migrations') }).then((code) => {
  process.exitCode = code
})
