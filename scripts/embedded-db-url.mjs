// The embedded PostgreSQL that `npm start` runs when DATABASE_URL is unset. Its port is
// TOOLROOM_EMBEDDED_PG_PORT when set, else the one `npm start` chose and remembered in the data
// directory (scripts/embedded-pg-port.mjs), else DEFAULT_EMBEDDED_PG_PORT; the Prisma CLI's configs
// (prisma/env.ts), which cannot load lib/config.ts, find the server by this address when run by hand.
import fs from 'node:fs'
import path from 'node:path'

export const DEFAULT_EMBEDDED_PG_PORT = 55630
export const EMBEDDED_PG_PORT_FILE = 'embedded-pg-port.json'

/** The port `npm start` remembered for the data directory's PostgreSQL; undefined when none (or unreadable). */
export function rememberedEmbeddedPgPort(dataDir) {
  try {
    const { port } = JSON.parse(fs.readFileSync(path.join(dataDir, EMBEDDED_PG_PORT_FILE), 'utf8'))
    return Number.isInteger(port) && port >= 1 && port <= 65535 ? port : undefined
  } catch {
    return undefined
  }
}

/**
 * The address of the embedded PostgreSQL, read when asked (lib/config.ts imports this module too, and
 * reads no files). `chosen`: the port `npm start` chose for it (scripts/embedded-pg-port.mjs).
 */
export function embeddedDatabaseUrl(chosen) {
  const port =
    chosen ||
    Number(process.env.TOOLROOM_EMBEDDED_PG_PORT?.trim() || 0) ||
    rememberedEmbeddedPgPort(path.resolve(process.env.TOOLROOM_DATA_DIR?.trim() || '.data')) ||
    DEFAULT_EMBEDDED_PG_PORT
  return `postgresql://postgres:postgres@127.0.0.1:${port}/toolroom`
}
