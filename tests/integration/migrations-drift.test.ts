// The committed migrations build exactly the schema prisma/schema.prisma declares: a change to the
// schema without its migration (or a migration that does more) fails here, not in a deployment.
// Two scratch databases, one built from schema.prisma's SQL (scripts/schema-sql.mjs), one by the
// migrations, must hold the same tables, columns, indexes, keys and enums (README, "Development notes").
import fs from 'node:fs'
import path from 'node:path'
import { expect, it } from 'vitest'
import { applyMigrations } from '@/lib/migrations/apply-migrations'
import { freshDatabase, withDatabase } from '../../scripts/fresh-database.mjs'
import { schemaSql } from '../../scripts/schema-sql.mjs'
import { schemaSnapshot } from '../support/schema-snapshot'

const MIGRATIONS = path.resolve('prisma/migrations')
// What schema.prisma declares. Not triggers, functions or CHECK constraints, which it cannot express
// and migrations add by hand; nor partial indexes (`… WHERE …`), which it cannot declare either.
const DECLARED = ['tables', 'columns', 'indexes', 'keys', 'enums'] as const
const declared = (lines: string[]) => lines.filter((line) => !(line.startsWith('index ') && / WHERE /.test(line)))

it('the migrations and schema.prisma agree', { timeout: 180_000 }, async () => {
  const admin = withDatabase(process.env.DATABASE_URL!, 'postgres')
  const fromSchema = await freshDatabase(admin, 'toolroom_drift_schema')
  const fromMigrations = await freshDatabase(admin, 'toolroom_drift_migrations')
  const sql = schemaSql({ from: null, to: fs.readFileSync('prisma/schema.prisma', 'utf8'), databaseUrl: fromSchema })
  const pg = await import('pg')
  const client = new pg.default.Client({ connectionString: fromSchema })
  await client.connect()
  await client.query(sql).finally(() => client.end())
  await applyMigrations({ databaseUrl: fromMigrations, directory: MIGRATIONS })

  const migrated = declared(await schemaSnapshot(fromMigrations, { parts: [...DECLARED], except: ['toolroom_migrations'] }))
  const schema = declared(await schemaSnapshot(fromSchema, { parts: [...DECLARED] }))
  expect(migrated, 'schema.prisma declares what no migration creates (or the reverse): add a migration (README, "Development notes")').toEqual(schema)
})
