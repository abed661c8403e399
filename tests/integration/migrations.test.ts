// The migration runner (lib/migrations, docs/operations.md "Migrations") on scratch databases of its
// own: an upgrade with data from the first migration to the last, two processes at once, a failing
// migration, an edited applied migration, and a database that Prisma migrated.
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { afterAll, describe, expect, it } from 'vitest'
import { applyMigrations, MIGRATION_LOCK_KEY, MigrationFailed, MIGRATIONS_TABLE } from '@/lib/migrations/apply-migrations'
import { NO_TRANSACTION_MARK, readMigrations } from '@/lib/migrations/migration-files'
import { freshDatabase, withDatabase } from '../../scripts/fresh-database.mjs'
import { TSX_NODE_ARGS } from '../../scripts/tsx-node-args.mjs'
import prismaHistory from '../fixtures/prisma-6.19.3-migrations.json'
import { schemaSnapshot } from '../support/schema-snapshot'
import { until } from '../support/until'

const MIGRATIONS = path.resolve('prisma/migrations')
const NAMES = readMigrations(MIGRATIONS).map((m) => m.name)
const ADMIN = withDatabase(process.env.DATABASE_URL!, 'postgres')
const scratchDirs: string[] = []

afterAll(() => {
  for (const dir of scratchDirs) fs.rmSync(dir, { recursive: true, force: true })
})

/** A migrations directory holding copies of `names` and the extra migrations given as name → SQL. */
function migrationsDir(names: string[], extra: Record<string, string> = {}): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'toolroom-migrations-'))
  scratchDirs.push(dir)
  for (const name of names) fs.cpSync(path.join(MIGRATIONS, name), path.join(dir, name), { recursive: true })
  for (const [name, sql] of Object.entries(extra)) {
    fs.mkdirSync(path.join(dir, name))
    fs.writeFileSync(path.join(dir, name, 'migration.sql'), sql)
  }
  return dir
}

async function query<T extends pg.QueryResultRow>(url: string, sql: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    return (await client.query<T>(sql, values)).rows
  } finally {
    await client.end()
  }
}

const recorded = (url: string) => query<{ name: string; checksum: string }>(url, `SELECT name, checksum FROM ${MIGRATIONS_TABLE} ORDER BY name`)

describe('an upgrade', () => {
  it('from the first migration to the last keeps the rows and ends with the schema a fresh install has', { timeout: 60_000 }, async () => {
    const db = await freshDatabase(ADMIN, 'toolroom_migrate_upgrade')
    expect(await applyMigrations({ databaseUrl: db, directory: migrationsDir(NAMES.slice(0, 1)) })).toEqual({
      applied: NAMES.slice(0, 1),
      adopted: [],
      unknown: [],
    })

    // One row in every table of the first migration, as the release that had only it wrote them.
    const spec = '{"description":"kept"}'
    const rows: Record<string, Record<string, unknown>> = {
      Tool: { id: '00000000-0000-4000-8000-000000000001', type: 'rest', level: 'external_write', description: 'Creates a ticket', failureRate7d: 0.25 },
      LanguageTool: { id: '00000000-0000-4000-8000-000000000002', toolSchemas: '[{"name":"search"}]', health: 'ok' },
      Connector: { id: '00000000-0000-4000-8000-000000000003' },
      Unit: { id: '00000000-0000-4000-8000-000000000004', parent: 'root', connectors: ['crm'] },
      Agent: { id: '00000000-0000-4000-8000-000000000005', unit: 'support', connectors: ['crm', 'mail'] },
      Secret: { id: '00000000-0000-4000-8000-000000000006', ciphertext: Buffer.from([1, 2, 3]), keyId: 'k1' },
      SideEffectPolicy: { id: '00000000-0000-4000-8000-000000000007', level: 'financial' },
    }
    for (const [table, own] of Object.entries(rows)) {
      const row = { apiVersion: 'toolroom.dev/v1', namespace: 'default', name: `kept-${table.toLowerCase()}`, labels: '{"team":"a"}', spec, ...own }
      rows[table] = row
      const columns = Object.keys(row)
      await query(
        db,
        `INSERT INTO "${table}" (${columns.map((c) => `"${c}"`).join(', ')}) VALUES (${columns.map((_, i) => `$${i + 1}`).join(', ')})`,
        Object.values(row),
      )
    }

    const run = await applyMigrations({ databaseUrl: db, directory: MIGRATIONS })
    expect(run.applied).toEqual(NAMES.slice(1))
    expect((await recorded(db)).map((r) => r.name)).toEqual(NAMES)

    for (const [table, row] of Object.entries(rows)) {
      const [found] = await query<Record<string, unknown>>(db, `SELECT * FROM "${table}" WHERE id = $1`, [row.id])
      expect(found, table).toBeDefined()
      for (const [column, value] of Object.entries(row)) {
        const expected =
          typeof value === 'string' && value.startsWith('{"')
            ? JSON.parse(value)
            : typeof value === 'string' && value.startsWith('[')
              ? JSON.parse(value)
              : value
        expect(found[column], `${table}.${column}`).toEqual(expected)
      }
    }

    const fresh = await freshDatabase(ADMIN, 'toolroom_migrate_fresh')
    await applyMigrations({ databaseUrl: fresh, directory: MIGRATIONS })
    expect(await schemaSnapshot(db)).toEqual(await schemaSnapshot(fresh))
  })
})

describe('two processes migrating at once', () => {
  it('one applies every migration while the other waits on the lock, then finds nothing to do', { timeout: 60_000 }, async () => {
    const db = await freshDatabase(ADMIN, 'toolroom_migrate_race')
    // Both start while the lock is taken, so both are waiting on it before either can begin.
    const holder = new pg.Client({ connectionString: db })
    await holder.connect()
    await holder.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY])
    const migrate = () =>
      new Promise<{ code: number | null; output: string }>((resolve) => {
        const child = spawn(process.execPath, [...TSX_NODE_ARGS, 'scripts/migrate.ts'], { env: { ...process.env, DATABASE_URL: db, LOG_FORMAT: 'text' } })
        let output = ''
        child.stdout.on('data', (d) => (output += d))
        child.stderr.on('data', (d) => (output += d))
        child.once('exit', (code) => resolve({ code, output }))
      })
    const runs = [migrate(), migrate()]
    await until('both processes waiting on the migration lock', async () => {
      const { rows } = await holder.query<{ waiting: number }>(
        "SELECT count(*)::int AS waiting FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())",
      )
      return rows[0].waiting === 2
    })
    await holder.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY])
    await holder.end()

    const outputs = await Promise.all(runs)
    for (const { code, output } of outputs) expect(code, output).toBe(0)
    const said = outputs.map((o) => o.output)
    expect(said.filter((o) => o.includes(`migrations: ${NAMES.length} applied`))).toHaveLength(1)
    expect(said.filter((o) => o.includes('migrations: none to apply'))).toHaveLength(1)
    for (const output of said) expect(output).toContain('another process is applying migrations: waiting for it')
    expect((await recorded(db)).map((r) => r.name)).toEqual(NAMES)
  })
})

describe('a failing migration', () => {
  it('is rolled back whole, named with its line, and leaves the table of applied migrations as it was', async () => {
    const db = await freshDatabase(ADMIN, 'toolroom_migrate_failing')
    await applyMigrations({ databaseUrl: db, directory: MIGRATIONS })
    const before = await recorded(db)
    const broken = migrationsDir(NAMES, {
      '29990101000000_broken': 'CREATE TABLE "HalfDone" (id int);\nALTER TABLE "Tool" ADD COLUMN "halfDone" int;\nINSERT INTO "NoSuchTable" VALUES (1);\n',
    })
    const failure = await applyMigrations({ databaseUrl: db, directory: broken }).catch((e: unknown) => e)
    expect(failure).toBeInstanceOf(MigrationFailed)
    expect((failure as Error).message).toMatch(/^migration 29990101000000_broken failed at line 3 of its migration.sql: relation "NoSuchTable" does not exist/)
    expect(await query(db, `SELECT to_regclass('"HalfDone"') AS t`)).toEqual([{ t: null }])
    expect(await query(db, `SELECT column_name FROM information_schema.columns WHERE table_name = 'Tool' AND column_name = 'halfDone'`)).toEqual([])
    expect(await recorded(db)).toEqual(before)
  })

  it('is undone when its row cannot be written: the two commit together', async () => {
    const db = await freshDatabase(ADMIN, 'toolroom_migrate_atomic')
    await applyMigrations({ databaseUrl: db, directory: MIGRATIONS })
    // The migration writes its own row first, so the runner's row for it breaks the primary key.
    const name = '29990101000000_records_itself'
    const dir = migrationsDir(NAMES, {
      [name]: `CREATE TABLE "Orphan" (id int);\nINSERT INTO ${MIGRATIONS_TABLE} (name, checksum) VALUES ('${name}', 'not its checksum');\n`,
    })
    await expect(applyMigrations({ databaseUrl: db, directory: dir })).rejects.toThrow(/duplicate key value violates unique constraint/)
    expect(await query(db, `SELECT to_regclass('"Orphan"') AS t`)).toEqual([{ t: null }])
    expect((await recorded(db)).map((r) => r.name)).toEqual(NAMES)
  })

  it('marked to run outside a transaction runs so (CREATE INDEX CONCURRENTLY refuses a transaction)', async () => {
    const db = await freshDatabase(ADMIN, 'toolroom_migrate_concurrently')
    const dir = migrationsDir(NAMES, {
      '29990101000000_concurrent_index': `${NO_TRANSACTION_MARK}\nCREATE INDEX CONCURRENTLY IF NOT EXISTS "Tool_description_idx" ON "Tool" ("description");\n`,
    })
    const run = await applyMigrations({ databaseUrl: db, directory: dir })
    expect(run.applied.at(-1)).toBe('29990101000000_concurrent_index')
    expect(await query(db, `SELECT indexname FROM pg_indexes WHERE indexname = 'Tool_description_idx'`)).toHaveLength(1)
  })
})

describe('an applied migration edited afterwards', () => {
  it('is refused before anything else is applied', async () => {
    const db = await freshDatabase(ADMIN, 'toolroom_migrate_edited')
    await applyMigrations({ databaseUrl: db, directory: MIGRATIONS })
    const dir = migrationsDir(NAMES, { '29990101000000_after_the_edit': 'CREATE TABLE "AfterTheEdit" (id int);' })
    fs.appendFileSync(path.join(dir, NAMES[2], 'migration.sql'), '\nALTER TABLE "Tool" ADD COLUMN "sneaked" int;\n')

    await expect(applyMigrations({ databaseUrl: db, directory: dir })).rejects.toThrow(
      new RegExp(
        `^migration ${NAMES[2]} was applied with checksum [0-9a-f]{64}, but its migration.sql now has [0-9a-f]{64}: an applied migration must not change`,
      ),
    )
    expect(await query(db, `SELECT to_regclass('"AfterTheEdit"') AS t`)).toEqual([{ t: null }])
    expect((await recorded(db)).map((r) => r.name)).toEqual(NAMES)
  })
})

describe('a database that Prisma migrated', () => {
  // What Prisma 6.19.3's `migrate deploy` recorded for the migrations as they were then (the table's
  // DDL is Prisma's own), on a database whose schema those migrations built.
  async function prismaMigrated(name: string, count: number, rows = prismaHistory.slice(0, count)) {
    const db = await freshDatabase(ADMIN, name)
    await applyMigrations({ databaseUrl: db, directory: migrationsDir(NAMES.slice(0, count)) })
    await query(db, `DROP TABLE ${MIGRATIONS_TABLE}`)
    await query(
      db,
      `CREATE TABLE "_prisma_migrations" (
        "id" VARCHAR(36) PRIMARY KEY NOT NULL, "checksum" VARCHAR(64) NOT NULL, "finished_at" TIMESTAMPTZ, "migration_name" VARCHAR(255) NOT NULL,
        "logs" TEXT, "rolled_back_at" TIMESTAMPTZ, "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(), "applied_steps_count" INTEGER NOT NULL DEFAULT 0)`,
    )
    for (const [i, row] of rows.entries())
      await query(
        db,
        `INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, rolled_back_at, started_at, applied_steps_count)
         VALUES (gen_random_uuid(), $1, $2, $3, $4, timestamptz '2026-11-25 10:00:00+00' + make_interval(secs => $5), 1)`,
        [row.checksum, 'finished' in row && row.finished === false ? null : `2026-11-25T10:00:${String(i).padStart(2, '0')}.500Z`, row.migration_name, null, i],
      )
    return db
  }

  it('has what Prisma applied adopted by name and checksum, never run again, and the rest applied', { timeout: 60_000 }, async () => {
    const db = await prismaMigrated('toolroom_migrate_prisma', 10)
    const run = await applyMigrations({ databaseUrl: db, directory: MIGRATIONS })
    expect(run.adopted).toEqual(NAMES.slice(0, 10))
    expect(run.applied).toEqual(NAMES.slice(10))
    const [first] = await query<{ applied_at: Date; adopted_from: string }>(db, `SELECT applied_at, adopted_from FROM ${MIGRATIONS_TABLE} WHERE name = $1`, [
      NAMES[0],
    ])
    expect(first).toEqual({ applied_at: new Date('2026-11-25T10:00:00.500Z'), adopted_from: '_prisma_migrations' })
    expect(await applyMigrations({ databaseUrl: db, directory: MIGRATIONS })).toEqual({ applied: [], adopted: [], unknown: [] })

    const fresh = await freshDatabase(ADMIN, 'toolroom_migrate_prisma_fresh')
    await applyMigrations({ databaseUrl: fresh, directory: MIGRATIONS })
    expect(await schemaSnapshot(db, { except: ['_prisma_migrations'] })).toEqual(await schemaSnapshot(fresh))
  })

  it('is refused when Prisma applied a migration from another text', async () => {
    const rows = prismaHistory.slice(0, 3).map((row, i) => (i === 1 ? { ...row, checksum: 'f'.repeat(64) } : row))
    const db = await prismaMigrated('toolroom_migrate_prisma_edited', 3, rows)
    await expect(applyMigrations({ databaseUrl: db, directory: MIGRATIONS })).rejects.toThrow(
      `migration ${NAMES[1]} was applied with checksum ${'f'.repeat(64)}, but its migration.sql now has`,
    )
    expect(await recorded(db)).toEqual([])
  })

  it('is refused while Prisma has a migration started and never finished', async () => {
    const rows = [...prismaHistory.slice(0, 2), { ...prismaHistory[2], finished: false }]
    const db = await prismaMigrated('toolroom_migrate_prisma_failed', 2, rows)
    await expect(applyMigrations({ databaseUrl: db, directory: MIGRATIONS })).rejects.toThrow(
      `Prisma recorded migration ${NAMES[2]} as started but never finished`,
    )
    expect(await recorded(db)).toEqual([])
  })
})

describe('the call log becoming day partitions (20261127141000_call_partitions)', () => {
  const PARTITIONING = '20261127141000_call_partitions'
  const DAY_MS = 86_400_000
  const column = 'id, "startedAt", "agentId", "agentNamespace", "agentName", "toolId", "toolNamespace", provenance, channel, outcome, "idempotencyKey", args'

  it(
    'keeps every call of every day, and reads by id, approval updates, repeated writes and the statistics triggers work on them',
    { timeout: 60_000 },
    async () => {
      const db = await freshDatabase(ADMIN, 'toolroom_migrate_call_partitions')
      const before = NAMES.slice(0, NAMES.indexOf(PARTITIONING))
      await applyMigrations({ databaseUrl: db, directory: migrationsDir(before) })

      // 50 calls over five days (one of them 40 days back, one just before a UTC midnight), as the
      // release before wrote them; one waits for approval.
      const today = Math.floor(Date.now() / DAY_MS) * DAY_MS
      const starts = [today - 40 * DAY_MS + 3_600_000, today - 3 * DAY_MS + 3_600_000, today - 2 * DAY_MS + 3_600_000, today - 10_000, today]
      const agentId = '00000000-0000-4000-8000-0000000000a1'
      const calls = Array.from({ length: 50 }, (_, i) => ({
        id: `00000000-0000-4000-8000-${String(i + 1).padStart(12, '0')}`,
        startedAt: new Date(starts[i % starts.length] + Math.floor(i / starts.length) * 1000).toISOString(),
        outcome: i === 7 ? 'pending_approval' : i % 3 === 0 ? 'failed' : 'succeeded',
        idempotencyKey: `key-${i}`,
      }))
      for (const c of calls)
        await query(
          db,
          `INSERT INTO "ToolCall" (${column}) VALUES ($1, $2, $3, 'default', 'bot', 'github.create_issue', 'github', 'grant', 'mcp', $4, $5, '{"title":"kept"}')`,
          [c.id, c.startedAt, agentId, c.outcome, c.idempotencyKey],
        )
      const held = calls[7]
      await query(
        db,
        `INSERT INTO "ApprovalRequest" ("callId", "agentId", "agentNamespace", "agentName", "toolId", "toolNamespace", "expiresAt")
       VALUES ($1, $2, 'default', 'bot', 'github.create_issue', 'github', now() + interval '1 day')`,
        [held.id, agentId],
      )
      const rowsBefore = await query(db, `SELECT * FROM "ToolCall" ORDER BY id`)

      expect((await applyMigrations({ databaseUrl: db, directory: MIGRATIONS })).applied).toEqual(NAMES.slice(before.length))

      // Every row, every column, as it was; each in the partition of its UTC day.
      // (Columns that later migrations add are not compared.)
      const columnsBefore = Object.keys(rowsBefore[0])
      const rowsAfter = await query(db, `SELECT * FROM "ToolCall" ORDER BY id`)
      expect(rowsAfter.map((row) => Object.fromEntries(columnsBefore.map((c) => [c, row[c]])))).toEqual(rowsBefore)
      const placed = await query<{ partition: string; id: string; startedAt: Date }>(
        db,
        `SELECT tableoid::regclass::text AS partition, id, "startedAt" FROM "ToolCall"`,
      )
      for (const row of placed) expect(row.partition, row.id).toBe(`"ToolCall_p${row.startedAt.toISOString().slice(0, 10).replaceAll('-', '')}"`)
      expect(new Set(placed.map((p) => p.partition)).size).toBe(starts.length)
      expect(await query(db, `SELECT relkind FROM pg_class WHERE relname = 'ToolCall'`)).toEqual([{ relkind: 'p' }])

      // A read by id (as the calls explorer and approval_status do), an approval's outcome update by
      // id, a repeated write of the same call (ON CONFLICT on the key), all across the days.
      expect(await query(db, `SELECT id FROM "ToolCall" WHERE id = $1`, [calls[0].id])).toEqual([{ id: calls[0].id }])
      const [{ callId }] = await query<{ callId: string }>(db, `SELECT "callId" FROM "ApprovalRequest" WHERE status = 'pending'`)
      await query(db, `UPDATE "ToolCall" SET outcome = 'approved' WHERE id = $1`, [callId])
      expect(await query(db, `SELECT outcome FROM "ToolCall" WHERE id = $1`, [held.id])).toEqual([{ outcome: 'approved' }])
      const again = `INSERT INTO "ToolCall" (${column}) VALUES ($1, $2, $3, 'default', 'bot', 'github.create_issue', 'github', 'grant', 'mcp', 'succeeded', NULL, NULL) ON CONFLICT (id, "startedAt") DO NOTHING`
      await query(db, again, [calls[1].id, calls[1].startedAt, agentId])
      expect(await query(db, `SELECT count(*)::int AS n FROM "ToolCall"`)).toEqual([{ n: 50 }])

      // New calls: counted by the statistics triggers; a day with no partition yet is refused until
      // toolroom_call_partition creates it (what the gateway's writer does).
      const fresh = '00000000-0000-4000-8000-0000000000f1'
      await query(db, again, [fresh, new Date().toISOString(), agentId])
      expect(await query(db, `SELECT count(*)::int AS n FROM "CallStatInsertLog" WHERE $1 = ANY("callIds")`, [fresh])).toEqual([{ n: 1 }])
      const farAhead = new Date(today + 60 * DAY_MS).toISOString()
      await expect(query(db, again, ['00000000-0000-4000-8000-0000000000f2', farAhead, agentId])).rejects.toThrow(/no partition of relation "ToolCall" found/)
      await query(db, `SELECT toolroom_call_partition($1::date)`, [farAhead.slice(0, 10)])
      await query(db, again, ['00000000-0000-4000-8000-0000000000f2', farAhead, agentId])
      expect(await query(db, `SELECT count(*)::int AS n FROM "ToolCall"`)).toEqual([{ n: 52 }])
    },
  )
})

describe('calls by person kept as 7-day totals (20261128193000_stats_person_totals)', () => {
  const PERSON_TOTALS = '20261128193000_stats_person_totals'
  const AGENT = '00000000-0000-4000-8000-0000000000b1'
  const HOUR_MS = 3_600_000

  it('drops the rows of calls made for nobody, and the next rollup sums the totals afresh with the people in them', { timeout: 60_000 }, async () => {
    const db = await freshDatabase(ADMIN, 'toolroom_migrate_person_totals')
    await applyMigrations({ databaseUrl: db, directory: migrationsDir(NAMES.slice(0, NAMES.indexOf(PERSON_TOTALS))) })

    // What the release before wrote for 5 calls of one agent two hours ago: 2 for Jane (no failure),
    // 3 for nobody (one failed), and its totals over the window it recorded.
    const hour = new Date(Math.floor(Date.now() / HOUR_MS) * HOUR_MS - 2 * HOUR_MS)
    const histogram = `ARRAY[${Array.from({ length: 73 }, () => 0).join(',')}]`
    for (const [dimension, key] of [
      ['agent', AGENT],
      ['all', ''],
    ])
      await query(
        db,
        `INSERT INTO "CallStatHourly" (dimension, key, hour, calls, failures, refused, "latencyCount", "latencySumMs", "latencyHistogram")
         VALUES ($1, $2, $3, 5, 1, 0, 0, 0, ${histogram})`,
        [dimension, key, hour],
      )
    await query(
      db,
      `INSERT INTO "CallStatPersonHourly" (issuer, subject, "agentId", hour, "displayName", calls, failures, refused)
       VALUES ('https://idp.test', 'jane', $1, $2, 'Jane Doe', 2, 0, 0), ('', '', $1, $2, NULL, 3, 1, 0)`,
      [AGENT, hour],
    )
    await query(db, `INSERT INTO "CallStat7d" (dimension, key, calls, failures, refused) VALUES ('agent', $1, 5, 1, 0), ('all', '', 5, 1, 0)`, [AGENT])
    await query(
      db,
      `INSERT INTO "CallStatState" (id, version, "totalsWindowStart", "totalsWindowEnd") VALUES (1, 1, date_trunc('day', $1::timestamptz) - interval '6 days', $1)
       ON CONFLICT (id) DO UPDATE SET "totalsWindowStart" = excluded."totalsWindowStart", "totalsWindowEnd" = excluded."totalsWindowEnd"`,
      [new Date(Math.floor(Date.now() / HOUR_MS) * HOUR_MS)],
    )

    await applyMigrations({ databaseUrl: db, directory: MIGRATIONS })
    expect(await query(db, `SELECT subject, calls FROM "CallStatPersonHourly"`)).toEqual([{ subject: 'jane', calls: 2 }])
    expect(await query(db, `SELECT "totalsWindowEnd" FROM "CallStatState"`)).toEqual([{ totalsWindowEnd: null }])

    // The rollup, as the worker runs it, in a process of its own on this database.
    const rollup = await new Promise<{ code: number | null; output: string }>((resolve) => {
      const child = spawn(process.execPath, [...TSX_NODE_ARGS, 'scripts/stats-rollup.ts'], { env: { ...process.env, DATABASE_URL: db, LOG_FORMAT: 'text' } })
      let output = ''
      child.stdout.on('data', (d) => (output += d))
      child.stderr.on('data', (d) => (output += d))
      child.once('exit', (code) => resolve({ code, output }))
    })
    expect(rollup.code, rollup.output).toBe(0)
    // Jane's 2 calls through the agent as a total of their own; the agent's 5 stand, so "no person" is
    // the 3 the dropped row held.
    expect(await query(db, `SELECT dimension, key, calls, failures, refused FROM "CallStat7d" ORDER BY dimension, key`)).toEqual([
      { dimension: 'agent', key: AGENT, calls: 5, failures: 1, refused: 0 },
      { dimension: 'all', key: '', calls: 5, failures: 1, refused: 0 },
      { dimension: 'person', key: `["https://idp.test", "jane", "${AGENT}"]`, calls: 2, failures: 0, refused: 0 },
    ])
  })
})
