// The port of the embedded PostgreSQL `npm start` runs (DATABASE_URL unset): TOOLROOM_EMBEDDED_PG_PORT
// when set, else the one remembered in the data directory, else DEFAULT_EMBEDDED_PG_PORT when free,
// else any free port, then remembered. A second checkout started beside the first (its own data
// directory) so gets a port of its own instead of dying on the first one's, and each start of one
// data directory finds its database where it was (the Prisma CLI's configs read the same file:
// scripts/embedded-db-url.mjs).
import fs from 'node:fs'
import path from 'node:path'
import { DEFAULT_EMBEDDED_PG_PORT, EMBEDDED_PG_PORT_FILE, rememberedEmbeddedPgPort } from './embedded-db-url.mjs'
import { freePort, portIsFree } from './free-port.mjs'

/**
 * @param {string} dataDir the data directory (TOOLROOM_DATA_DIR), whose `pg17` the server runs on
 * @param {number | undefined} configured TOOLROOM_EMBEDDED_PG_PORT, when set: used as it is, not remembered
 * @returns {Promise<number>}
 */
export async function chooseEmbeddedPgPort(dataDir, configured, log = (..._args) => {}) {
  if (configured !== undefined) return configured
  const remembered = rememberedEmbeddedPgPort(dataDir)
  if (remembered !== undefined) {
    if (await portIsFree(remembered)) return remembered
    // Nothing stored in the database names its port: another port serves it as well.
    log(`port ${remembered} of this data directory's PostgreSQL is in use: moving it to a free one`)
  }
  const port = remembered !== DEFAULT_EMBEDDED_PG_PORT && (await portIsFree(DEFAULT_EMBEDDED_PG_PORT)) ? DEFAULT_EMBEDDED_PG_PORT : await freePort()
  fs.mkdirSync(dataDir, { recursive: true })
  fs.writeFileSync(path.join(dataDir, EMBEDDED_PG_PORT_FILE), JSON.stringify({ port }) + '\n')
  return port
}
