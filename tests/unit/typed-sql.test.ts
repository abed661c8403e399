// One way to reach the database in each place (docs/design/data-layer.md): Prisma's model API, or the
// typed SQL of lib/sql.ts, whose table types come from prisma/schema.prisma so a renamed column fails
// the build. SQL written as a string (`$queryRaw`, `$executeRaw`, their Unsafe forms, a pg pool's or
// client's `.query(`) is checked by nothing until it runs: it is allowed only in the files below, each
// with its reason. A new file with one fails this test; so does a listed file that no longer has any
// (take it off the list, so it cannot come back unnoticed).
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { PROJECT_ROOT } from '@/tests/support/module-graph'

const PLAIN_JS_SCRIPT = 'a plain JavaScript script (benchmark or test database setup) that TypeScript does not check'

const UNTYPED_SQL_ALLOWED: Record<string, string> = {
  // Where SQL strings belong.
  'lib/sql.ts': 'the typed SQL itself: runs the statements Kysely compiled',
  'lib/gateway/record-call.ts': "runs the call-record INSERT (compiled by lib/sql.ts) on the gateway's own pool, as a named statement",
  'lib/gateway/rate-limit.ts': "runs the rate count's SELECT (compiled by lib/sql.ts) on the gateway's own pool, as a named statement",
  'lib/health/check-health.ts': "the health check's `SELECT 1` on the pool alone, before (and instead of) loading the Prisma client",
  'lib/migrations/apply-migrations.ts': 'runs the migrations, which are SQL files, on one connection under a session advisory lock',
  'scripts/steps/data-settled.ts':
    "npm start's check that the admin token and the demo are written already, on a connection of its own before (and instead of) loading the Prisma client and so the typed SQL",
  'lib/call-log/maintain-call-partitions.ts': 'DDL on day partitions (DETACH … CONCURRENTLY cannot run in a transaction), which no query builder types',
  'lib/registry/registry-changes.ts': 'LISTEN on a connection of its own, held open for notifications',
  'lib/jobs/job-arrivals.ts': 'LISTEN on a connection of its own, held open for notifications (workers told of a job)',
  'lib/jobs/boss.ts': "a session advisory lock held on a connection of its own across pg-boss's queue creation",
  // Scripts run by node as they are.
  'scripts/bench/approvals-fill.mjs': PLAIN_JS_SCRIPT,
  'scripts/bench/call-partitions.mts': 'a benchmark of the partitioned call log: writers and partition DDL on connections of its own',
  'scripts/bench/soak.mts': 'a benchmark of the call log over a compressed month: bulk day fills and catalog size reads on a connection of its own',
  'scripts/bench/late-rollup.mts':
    'a benchmark of the late rollup: bulk call fills, VACUUM and fillfactor DDL between runs, and the statistics catalog (HOT update counts) on a connection of its own',
  'scripts/bench/discovery.mjs': PLAIN_JS_SCRIPT,
  'scripts/bench/gateway.mjs': PLAIN_JS_SCRIPT,
  'scripts/bench/gateway-hop.mjs': PLAIN_JS_SCRIPT,
  'scripts/bench/generate-fleet.mjs': PLAIN_JS_SCRIPT,
  'scripts/bench/scale.mjs': PLAIN_JS_SCRIPT,
  'scripts/bench/search.mjs': PLAIN_JS_SCRIPT,
  'scripts/bench/stats-fill.mjs': PLAIN_JS_SCRIPT,
  'scripts/bench/stats.mjs': PLAIN_JS_SCRIPT,
  'scripts/bench/watch.mjs': PLAIN_JS_SCRIPT,
  'scripts/embedded-postgres.mjs': PLAIN_JS_SCRIPT,
  'scripts/fresh-database.mjs': PLAIN_JS_SCRIPT,
  'scripts/fuzz/fuzz.mjs': PLAIN_JS_SCRIPT,
}

const SEARCHED_DIRS = ['lib', 'workers', 'scripts']
const GENERATED_DIR = path.join('lib', 'generated')
// `.query<Row>(` too: a type argument on the call does not make its SQL text checked.
const UNTYPED_SQL = /\$(queryRaw|executeRaw)(Unsafe)?\b|\.query\s*(<[^()]*>)?\s*\(/

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(path.join(PROJECT_ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const relative = path.join(dir, entry.name)
    if (entry.isDirectory()) return relative === GENERATED_DIR || entry.name === 'node_modules' ? [] : sourceFiles(relative)
    return /\.(ts|tsx|mts|cts|mjs|cjs|js)$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [relative.split(path.sep).join('/')] : []
  })
}

// Comments may name what they replaced; only code counts.
const withoutComments = (source: string) => source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '')

const filesWithUntypedSql = SEARCHED_DIRS.flatMap(sourceFiles)
  .filter((file) => UNTYPED_SQL.test(withoutComments(fs.readFileSync(path.join(PROJECT_ROOT, file), 'utf8'))))
  .sort()

describe('untyped SQL', () => {
  it('appears only in the files listed with a reason', () => {
    expect(filesWithUntypedSql.filter((file) => !(file in UNTYPED_SQL_ALLOWED))).toEqual([])
  })

  it('is still there in every listed file (a converted file leaves the list)', () => {
    expect(Object.keys(UNTYPED_SQL_ALLOWED).filter((file) => !filesWithUntypedSql.includes(file))).toEqual([])
  })
})
