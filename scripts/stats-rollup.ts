// Runs the statistics rollup once, now, as the worker's job would: `node --import tsx scripts/stats-rollup.ts`
// with DATABASE_URL set. Prints what it did as one JSON line; exits 1 on error.
import { prisma } from '@/lib/db'
import { rollupCallStats } from '@/lib/stats/rollup-call-stats'

rollupCallStats()
  .then((result) => console.log(JSON.stringify(result)))
  .catch((e) => {
    console.error('stats rollup failed:', e)
    process.exitCode = 1
  })
  .finally(() => prisma.$disconnect())
