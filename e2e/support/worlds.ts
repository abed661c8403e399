// Each Playwright worker runs its specs in a world of its own (docs/design/testing.md, "End-to-end
// tests"): `npm test` seeds the demo fleet once, copies that database for every worker and starts a
// production server on each copy. Which world a process is in follows from Playwright's parallel index,
// which a worker keeps across restarts and which no two workers running at once share.

export interface World {
  /** The world's production server (the gateway in front of Next.js). */
  baseURL: string
  /** Its database, a copy of the seeded one: what a spec reads or writes directly. */
  databaseUrl: string
  /** The server's output, searched afterwards for Secret values. */
  serverLog: string
}

function readWorlds(): World[] {
  const raw = process.env.E2E_WORLDS
  if (!raw) throw new Error('E2E_WORLDS is not set: run the end-to-end tests with `npm test e2e`, which starts their servers')
  const worlds = JSON.parse(raw) as World[]
  if (!Array.isArray(worlds) || worlds.length === 0) throw new Error('E2E_WORLDS names no world')
  return worlds
}

export const WORLDS = readWorlds()

/** This process's world: the runner's (and global setup's) is the first. */
export const WORLD_INDEX = Number(process.env.TEST_PARALLEL_INDEX ?? 0)
if (!WORLDS[WORLD_INDEX]) throw new Error(`Playwright worker ${WORLD_INDEX} has no world: E2E_WORLDS names ${WORLDS.length}`)
export const WORLD = WORLDS[WORLD_INDEX]

/** A demo person's session on world `index`'s server (each server has its own sessions). */
export const sessionStatePath = (role: string, index: number) => `.data/test-reports/${role}-storage-state-${index}.json`

/** The demo admin's session on world `index`'s server. */
export const adminStatePath = (index: number) => sessionStatePath('admin', index)
