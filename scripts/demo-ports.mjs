// The demo fleet's local endpoints (its MCP servers and agent listener) take DEMO_PORT_SPAN consecutive
// ports. prisma/seed/demo-fleet.yaml writes them from DEMO_MANIFEST_PORT; the seed and the endpoints
// move them to the base `npm start` chose, which is kept in the data directory beside the database
// whose LanguageTools and Agents point at them. A second checkout started beside the first (its own
// data directory) so gets ports of its own instead of dying on the first one's.
import fs from 'node:fs'
import path from 'node:path'
import { portIsFree } from './free-port.mjs'

export const DEMO_MANIFEST_PORT = 4801
export const DEMO_PORT_SPAN = 10
const FILE = 'demo-ports.json'

/** The manifest's text (or an endpoint) with its local demo ports moved to start at `base`. */
export function withDemoPorts(text, base) {
  return text.replace(/(http:\/\/127\.0\.0\.1:)(\d+)(?=\/)/g, (whole, prefix, port) => {
    const offset = Number(port) - DEMO_MANIFEST_PORT
    return offset >= 0 && offset < DEMO_PORT_SPAN ? `${prefix}${base + offset}` : whole
  })
}

/** Ports from here up to the ephemeral range are chosen from when the wanted ones are taken. */
const LOWEST_CHOSEN_PORT = 10_000

/** The first port of the range the system picks outgoing connections' ports from (Linux; its default elsewhere). */
function ephemeralPortsFrom() {
  try {
    const low = Number(fs.readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0])
    if (Number.isInteger(low) && low > LOWEST_CHOSEN_PORT + 1000) return low
  } catch {
    // not Linux
  }
  return 32_768
}

async function rangeFree(base) {
  if (base < 1 || base + DEMO_PORT_SPAN > 65536) return false
  for (let i = 0; i < DEMO_PORT_SPAN; i++) if (!(await portIsFree(base + i))) return false
  return true
}

/**
 * The first demo port of this data directory: the one it was seeded with, else `wanted` when its range
 * is free, else (or with `wanted` 0) a free range. Throws a one-line error when the seeded range is
 * taken, since the database's endpoints name those ports.
 */
export async function chooseDemoPorts(dataDir, wanted, log = () => {}) {
  const file = path.join(dataDir, FILE)
  if (fs.existsSync(file)) {
    const { base } = JSON.parse(fs.readFileSync(file, 'utf8'))
    if (!(await rangeFree(base)))
      throw new Error(
        `the demo fleet's ports ${base}-${base + DEMO_PORT_SPAN - 1} are in use (another Toolroom's demo?): stop it, or use another TOOLROOM_DATA_DIR for a demo on free ports`,
      )
    return base
  }
  let base = wanted !== 0 && (await rangeFree(wanted)) ? wanted : 0
  // Below the ephemeral range: a port the system hands out for outgoing connections could be taken by
  // one (the test suite makes thousands) between this choice and the endpoints binding it.
  const below = ephemeralPortsFrom() - DEMO_PORT_SPAN
  for (let tries = 0; base === 0 && tries < 50; tries++) {
    const candidate = LOWEST_CHOSEN_PORT + Math.floor(Math.random() * (below - LOWEST_CHOSEN_PORT))
    if (await rangeFree(candidate)) base = candidate
  }
  if (base === 0) throw new Error(`no ${DEMO_PORT_SPAN} consecutive free ports for the demo fleet's endpoints`)
  if (wanted !== 0 && base !== wanted) log(`demo endpoints on ports ${base}-${base + DEMO_PORT_SPAN - 1} (${wanted}-${wanted + DEMO_PORT_SPAN - 1} are in use)`)
  fs.mkdirSync(dataDir, { recursive: true })
  fs.writeFileSync(file, JSON.stringify({ base }) + '\n')
  return base
}
