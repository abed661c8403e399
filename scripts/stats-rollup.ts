// Runs the statistics rollup once, now, as the worker's job would: `node --conditions=react-server --import tsx scripts/stats-rollup.ts`
// with DATABASE_URL set. With --repair it first marks every kept hour for a full recompute from the
// raw calls (after a restore, or rows changed with the triggers off). Prints what it did as one JSON
// line; exits 1 on error.
import '@/lib/check-config'
import { prisma } from '@/lib/db'
import { markHoursForRecompute, rollupCallStats } from '@/lib/stats/rollup-call-stats'

const repair = process.argv.includes('--repair')

;(repair ? markHoursForRecompute().then(() => rollupCallStats()) : rollupCallStats())
  .then((result) => console.log(JSON.stringify({ ...(repair ? { repair: true } : {}), ...result })))
  .catch((e) => {
    console.error('stats rollup failed:', e)
    process.exitCode = 1
  })
  .finally(() => prisma.$disconnect())
