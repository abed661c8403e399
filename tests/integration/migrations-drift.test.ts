// The committed migrations build exactly the schema prisma/schema.prisma declares: a change to the
// schema without its migration (or a migration that does more) fails here, not in a deployment.
// Prisma's own diff, through the same Wasm engine that applies migrations (README, "Development notes").
import { spawnSync } from 'node:child_process'
import { expect, it } from 'vitest'
import { freshDatabase, withDatabase } from '../../scripts/fresh-database.mjs'

it('the migrations and schema.prisma agree', { timeout: 180_000 }, async () => {
  // The diff replays every migration into the database it is given: a scratch one of its own.
  const scratch = await freshDatabase(withDatabase(process.env.DATABASE_URL!, 'postgres'), 'toolroom_drift_check')
  const args = ['-r', './scripts/unref-timers.cjs', 'node_modules/prisma-migrate/build/index.js', 'migrate', 'diff', '--config', 'prisma.migrate.config.ts']
  const diff = spawnSync(
    process.execPath,
    [...args, '--from-migrations', 'prisma/migrations', '--to-schema-datamodel', 'node_modules/.prisma-migrate/schema.prisma', '--script'],
    {
      env: { ...process.env, DATABASE_URL: scratch },
      encoding: 'utf8',
    },
  )
  expect(diff.status, diff.stderr).toBe(0)
  expect(diff.stdout.trim(), 'schema.prisma declares what no migration creates (or the reverse): add a migration (README, "Development notes")').toBe(
    '-- This is an empty migration.',
  )
})
