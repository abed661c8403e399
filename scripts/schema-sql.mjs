// schema.prisma as SQL, for writing migrations and checking them (README, "Development notes"): the
// Prisma 6.19 CLI's Wasm schema engine (devDependency "prisma-migrate"; Prisma 7's needs a native engine
// that cannot be downloaded here) diffs two schema files, or an empty database and a schema file. It
// never migrates and never reads a database's catalog: production and `npm start` do not load it.
// `npm run db:diff` prints the SQL from the schema as committed (HEAD) to the one in the work tree:
// the body of the next migration, when the committed schema and migrations agree (the drift test).
import 'dotenv/config'
import { execFileSync, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { embeddedDatabaseUrl } from './embedded-db-url.mjs'

// Prisma 7 forbids `url` in the datasource block and Prisma 6 requires it (its engine reads the
// database through the adapter instead): a 6.x copy of a schema.
function forPrisma6(source) {
  return source
    .replace(/generator\s+\w+\s*\{[^}]*\}/g, '')
    .replace(
      /datasource\s+(\w+)\s*\{/,
      'generator client {\n  provider   = "prisma-client"\n  engineType = "client"\n  output     = "./unused-client"\n}\n\ndatasource $1 {\n  url = env("DATABASE_URL")',
    )
}

/**
 * The SQL that takes a database from the schema `from` (the text of a schema.prisma, or null for an
 * empty database) to the schema `to`. `databaseUrl` names any reachable PostgreSQL: the engine
 * connects to it, and reads nothing.
 */
export function schemaSql({ from, to, databaseUrl }) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'toolroom-schema-sql-'))
  try {
    const write = (name, source) => {
      const file = path.join(dir, name)
      fs.writeFileSync(file, forPrisma6(source))
      return file
    }
    const toFile = write('to.prisma', to)
    const fromArgs = from === null ? ['--from-empty'] : ['--from-schema-datamodel', write('from.prisma', from)]
    const cli = path.join(import.meta.dirname, '..', 'node_modules', 'prisma-migrate', 'build', 'index.js')
    const config = path.join(import.meta.dirname, '..', 'prisma.diff.config.ts')
    const diff = spawnSync(process.execPath, [cli, 'migrate', 'diff', '--config', config, ...fromArgs, '--to-schema-datamodel', toFile, '--script'], {
      env: { ...process.env, DATABASE_URL: databaseUrl, TOOLROOM_PRISMA6_SCHEMA: toFile, CHECKPOINT_DISABLE: '1' },
      encoding: 'utf8',
    })
    if (diff.status !== 0) throw new Error(`prisma migrate diff failed (${diff.status}):\n${diff.stderr}${diff.stdout}`)
    return diff.stdout
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const root = path.join(import.meta.dirname, '..')
  const committed = execFileSync('git', ['show', 'HEAD:prisma/schema.prisma'], { cwd: root, encoding: 'utf8' })
  const current = fs.readFileSync(path.join(root, 'prisma', 'schema.prisma'), 'utf8')
  process.stdout.write(schemaSql({ from: committed, to: current, databaseUrl: process.env.DATABASE_URL || embeddedDatabaseUrl() }))
}
