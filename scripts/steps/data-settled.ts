// Whether `npm start` has anything to write after the migrations: the admin token
// (TOOLROOM_ADMIN_TOKEN) and, with the demo, its people and fleet. Asked on one pg connection before
// the Prisma client is loaded: loading it costs about a second of CPU at every start, on the cores
// the web server is starting on (BENCHMARKS.md, "Start and stop"), and on every start after the
// first there is nothing to write. The rules are the writers' own (lib/tokens/env-admin-token-rule.ts,
// lib/seed/demo-seed-rule.ts); whatever this cannot tell, the full steps decide.
import pg from 'pg'
import { config } from '@/lib/config'
import { demoSkipReason } from '@/lib/seed/demo-seed-rule'
import { envAdminTokensSettled } from '@/lib/tokens/env-admin-token-rule'

// Counted as the seed counts them (prisma.<model>.count()); the admin token's rows as ensureEnvAdminToken reads them.
const STATE = `SELECT (SELECT count(*) FROM "User")::int AS people, (SELECT count(*) FROM "Agent")::int AS agents,
  (SELECT count(*) FROM "Tool")::int AS tools,
  ARRAY(SELECT hash FROM "ApiToken" WHERE origin = 'env' AND "revokedAt" IS NULL) AS "envTokenHashes"`

interface State {
  people: number
  agents: number
  tools: number
  envTokenHashes: string[]
}

/**
 * Nothing to write: `demoSkipped` is why the demo is not seeded (null without `demo`). null when
 * something is to be written, or the question could not be answered: the full steps run then.
 */
export async function dataSettled({ databaseUrl, demo }: { databaseUrl: string; demo: boolean }): Promise<{ demoSkipped: string | null } | null> {
  const client = new pg.Client({ connectionString: databaseUrl })
  try {
    await client.connect()
    const [state] = (await client.query<State>(STATE)).rows
    if (!envAdminTokensSettled(state.envTokenHashes, config().TOOLROOM_ADMIN_TOKEN)) return null
    if (!demo) return { demoSkipped: null }
    const demoSkipped = demoSkipReason(state)
    return demoSkipped ? { demoSkipped } : null
  } catch {
    return null
  } finally {
    await client.end().catch(() => {})
  }
}
