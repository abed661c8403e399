// What a web server loads before its first health answer, which `npm start` waits for: the preload,
// instrumentation.ts (register() awaits every import it makes) and the health route. The Prisma
// client is not among them: its first query builds a query compiler from WebAssembly, about half a
// second of CPU that every start would spend before ready (lib/db-pool.ts, BENCHMARKS.md, "Start and
// stop"). It loads with the deep health check npm start asks for once it has printed ready, or with the
// first route that reads through it.
import { describe, expect, it } from 'vitest'
import { modulesLoadedBy, readModule } from '@/tests/support/module-graph'

const START_PATH = ['scripts/web-preload.ts', 'instrumentation.ts', 'app/api/health/route.ts']

// The client and its driver adapter (not @prisma/instrumentation, which tracing loads when it is on).
const PRISMA_CLIENT = /^(lib\/generated\/prisma|@prisma\/client|@prisma\/adapter-pg)(\/|$)/
const loadsPrisma = (file: string) => readModule(file).externalImports.some((specifier) => PRISMA_CLIENT.test(specifier))

describe("the web server's start path", () => {
  const loaded = modulesLoadedBy(START_PATH)

  it('follows the imports (a walk that found nothing would pass vacuously)', () => {
    expect(loaded.has('lib/health/check-health.ts')).toBe(true)
    expect(loaded.has('lib/db-pool.ts')).toBe(true)
    expect(loaded.has('lib/config.ts')).toBe(true)
    expect(loaded.has('lib/health/answer-health.ts')).toBe(true)
    // The check below sees a module that loads the client.
    expect(loadsPrisma('lib/db.ts')).toBe(true)
  })

  it('loads no Prisma client before the first health answer', () => {
    const chains = [...loaded].filter(([file]) => loadsPrisma(file)).map(([, chain]) => chain.join(' → '))
    expect(chains).toEqual([])
  })
})
