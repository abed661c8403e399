// The Northwind demo fleet seeded into an empty database, as a step: every `npm start` on the
// embedded database runs it (dist/prepare-data.cjs), and dist/seed-demo.cjs alone. On a database that
// has people and a fleet already (every start after the first) it answers from three counts, before
// loading what seeding needs (the apply pipeline, the history, the rollup: about 1.3 s of CPU at each
// start, measured); `npm start` asks the same before it even loads the Prisma client
// (data-settled.ts). Prints what it did; 1 on error.
import { config } from '@/lib/config'
import { demoSkipReasonNow } from '@/lib/seed/demo-present'
import { demoSkippedLine } from '@/lib/seed/demo-seed-rule'
import { DEMO_MANIFEST_PORT } from '../demo-ports.mjs'

export async function seedDemo(): Promise<number> {
  try {
    const skipped = await demoSkipReasonNow()
    if (skipped) {
      console.log(demoSkippedLine(skipped))
      return 0
    }
    const [{ seedDemoUsers }, { seedDemoFleet }, { seedDemoHistory }, { rollupCallStats }] = await Promise.all([
      import('@/lib/seed/seed-demo-users'),
      import('@/lib/seed/seed-demo-fleet'),
      import('@/lib/seed/seed-demo-history'),
      import('@/lib/stats/rollup-call-stats'),
    ])
    const users = await seedDemoUsers()
    if (users) {
      // Printed once, when created: the README lists them too.
      console.log('demo users (sign in at /sign-in; these are for the demo database only):')
      for (const u of users) console.log(`  ${u.role.padEnd(8)} ${u.email.padEnd(26)} password: ${u.password}`)
    }
    const result = await seedDemoFleet({ portBase: config().TOOLROOM_DEMO_PORT || DEMO_MANIFEST_PORT })
    if (!result.seeded) {
      console.log(demoSkippedLine(result.reason ?? 'the database is not empty'))
      return 0
    }
    const s = result.summary!
    const resources = Object.entries(s.resources)
      .map(([kind, n]) => `${n} ${kind}`)
      .join(', ')
    console.log(
      `demo fleet: seeded ${resources}; image tools ${s.imageTools} on ${s.imageToolSubjects} subjects; ` +
        `MCP surfaces ${s.languageToolSurfaceTools} tools on ${s.languageToolSurfaces} LanguageTools`,
    )
    if (config().TOOLROOM_DEMO_TRAFFIC) {
      // A week of calls, counted by the same rollup the workers run each minute, so the first page has figures.
      const history = await seedDemoHistory()
      await rollupCallStats()
      console.log(`demo fleet: a week of history, ${history.calls} calls by ${history.agents} agents of ${history.tools} tools`)
    }
    return 0
  } catch (e) {
    const err = e as Error & { errors?: { document?: number; kind?: string; name?: string; field: string; rule: string; message: string }[] }
    const details = (err.errors ?? [])
      .map(
        (f) =>
          `\n  ${f.document !== undefined ? `document ${f.document} ` : ''}${f.kind ? `${f.kind} ` : ''}${f.name ? `"${f.name}" ` : ''}${f.field} [${f.rule}]: ${f.message}`,
      )
      .join('')
    console.error(`demo fleet: failed: ${err.message}${details}`)
    return 1
  }
}
