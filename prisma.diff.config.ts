// Config for the Prisma 6.19 CLI (devDependency "prisma-migrate"), used only by scripts/schema-sql.mjs
// to turn schema.prisma into SQL (`npm run db:diff`, tests/integration/migrations-drift.test.ts), never
// to migrate (docs/operations.md, "Migrations"). Its Wasm schema engine needs a driver adapter, and a
// reachable database, though a diff between two schema files reads nothing from it.
import 'dotenv/config'
import { PrismaPg } from '@prisma/adapter-pg'
import { defineConfig } from 'prisma-migrate/config'

export default defineConfig({
  experimental: { adapter: true },
  engine: 'js',
  adapter: async () => new PrismaPg({ connectionString: process.env.DATABASE_URL! }),
  // The 6.x copy of the schema scripts/schema-sql.mjs wrote: the CLI reads it to choose its engines.
  schema: process.env.TOOLROOM_PRISMA6_SCHEMA!,
})
