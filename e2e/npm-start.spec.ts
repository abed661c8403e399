import { type ChildProcess, spawn } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { expect, test } from '@playwright/test'
import { freePort } from '../scripts/free-port.mjs'

// `npm start` as a newcomer runs it, from an empty data directory: embedded PostgreSQL, migrations, the
// demo fleet and its endpoints, web, gateway and workers. Then Ctrl-C, which a terminal sends to its
// whole foreground process group at once. Everything must stop, in order, with no error lines on the
// way out and no process or server left behind. `npm run dev` (the same stack on `next dev`) and then
// `npm start` start again on the same data, and stop as cleanly (as root, PostgreSQL runs as its own OS
// user and refuses a data directory others may enter, which once broke every start after the first).
// Ports of its own, free when the test starts, so it runs next to a developer's own `npm start` (the
// demo fleet's endpoints choose free ports of their own: scripts/demo-ports.mjs).
let PORT = 0
let PG_PORT = 0

function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1')
    socket.once('connect', () => (socket.destroy(), resolve(true)))
    socket.once('error', () => resolve(false))
  })
}

function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0)
    return true
  } catch {
    return false
  }
}

type Run = { output: () => string; pid: number; exited: Promise<number | null> }

function spawnNpm(command: string[], env: NodeJS.ProcessEnv): Run {
  let output = ''
  // detached: a process group of its own, as a terminal gives the job it runs.
  const child: ChildProcess = spawn('npm', command, { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] })
  child.stdout!.on('data', (d) => (output += d))
  child.stderr!.on('data', (d) => (output += d))
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  return { output: () => output, pid: child.pid!, exited }
}

async function waitReady(run: Run) {
  // Ready, or given up (a step or service failed): either way, stop waiting.
  await expect.poll(() => /ready at |\[toolroom\] stopped/.test(run.output()), { timeout: 240_000, intervals: [500] }).toBe(true)
  expect(run.output(), 'it came up').toMatch(new RegExp(`ready at http://127\\.0\\.0\\.1:${PORT}\\b`))
  expect((await fetch(`http://127.0.0.1:${PORT}/api/health`)).status).toBe(200)
}

async function ctrlC(run: Run, dataDir: string) {
  const stopAt = run.output().length
  process.kill(-run.pid, 'SIGINT')
  const code = await Promise.race([run.exited, new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), 60_000))])
  expect(code).toBe(0)
  const afterStop = run.output().slice(stopAt)
  expect(afterStop).toContain('[toolroom] stopped')
  // Jobs still running finish and report as usual (the demo fleet's cluster-only MCP servers fail
  // discovery here by design); what must not appear is the shutdown itself breaking things: the
  // database going first, a service dying, an uncaught error.
  const shutdownTrouble = afterStop
    .split('\n')
    .filter((line) => new RegExp(`terminat|Connection terminated|:${PG_PORT}\\b|exited \\(|Uncaught|^\\s+at |^\\w*Error:`, 'i').test(line))
  expect(shutdownTrouble, `everything said after the Ctrl-C:\n${afterStop}`).toEqual([])

  expect(groupAlive(run.pid)).toBe(false)
  expect(await portOpen(PORT)).toBe(false)
  expect(await portOpen(PG_PORT)).toBe(false)
  // PostgreSQL was shut down, not killed: it removes its pid file on a clean stop.
  expect(fs.existsSync(path.join(dataDir, 'pg17', 'postmaster.pid'))).toBe(false)
}

/** Signs the demo admin in through the API and reads the agents, as the first thing a newcomer's script would. */
async function signInAndListAgents(base: string) {
  const session = await fetch(`${base}/api/v1/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: base },
    body: JSON.stringify({ email: 'admin@toolroom.local', password: 'toolroom-demo-admin' }),
  })
  expect(session.status).toBe(200)
  const cookie = session.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ')
  const agents = await (await fetch(`${base}/api/v1/agents?limit=50`, { headers: { cookie } })).json()
  expect(agents.items.length).toBeGreaterThan(0)
}

// One data directory for the three starts: `npm start` from nothing, `npm run dev` on what it left, and
// `npm start` again. What comes before the web server (PostgreSQL, migrations, the seed, the demo
// endpoints, the workers) is the same code under both commands, so `npm run dev` from a directory of its
// own proved nothing the first start does not, and cost a second PostgreSQL initdb, migration and seed
// (docs/design/testing.md, "Whole-system specs").
test('npm start brings the whole system up from nothing in a private directory and one Ctrl-C stops it cleanly; npm run dev, then npm start, start again on the same data', async () => {
  test.setTimeout(600_000)
  // A private directory, as `mktemp -d` makes one (0700): as root, PostgreSQL's own OS user must
  // pass through it to its data directory.
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'toolroom-npm-start-'))
  const dataDir = path.join(root, '.data')
  PORT = await freePort()
  PG_PORT = await freePort()
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    TOOLROOM_DATA_DIR: dataDir,
    PORT: String(PORT),
    TOOLROOM_WEB_INTERNAL_PORT: String(await freePort()),
    TOOLROOM_EMBEDDED_PG_PORT: String(PG_PORT),
  }
  // What `npm test` set for its own server is not the newcomer's environment.
  for (const key of ['DATABASE_URL', 'TOOLROOM_SECRET_KEY', 'E2E_BASE_URL', 'TOOLROOM_ADMIN_TOKEN']) delete env[key]
  const base = `http://127.0.0.1:${PORT}`
  const runs: Run[] = []
  try {
    await test.step('npm start from nothing; Ctrl-C while the workers still discover the demo fleet', async () => {
      const first = spawnNpm(['start'], env)
      runs.push(first)
      await waitReady(first)
      expect(first.output()).toMatch(/admin\s+admin@toolroom\.local\s+password: toolroom-demo-admin/)
      expect(fs.existsSync(path.join(dataDir, 'secret-key'))).toBe(true)
      await signInAndListAgents(base)
      await ctrlC(first, dataDir)
      expect(fs.statSync(path.join(dataDir, 'pg17')).mode & 0o027, 'the data directory stays private').toBe(0)
    })

    for (const command of [['run', 'dev'], ['start']])
      await test.step(`npm ${command.join(' ')} on the data the start before left`, async () => {
        const again = spawnNpm(command, env)
        runs.push(again)
        await waitReady(again)
        expect(again.output(), 'the demo fleet is seeded once').not.toMatch(/password: toolroom-demo-admin/)
        await signInAndListAgents(base)
        await ctrlC(again, dataDir)
      })
  } finally {
    for (const run of runs) if (groupAlive(run.pid)) process.kill(-run.pid, 'SIGKILL')
    const pidFile = path.join(dataDir, 'pg17', 'postmaster.pid')
    if (fs.existsSync(pidFile)) process.kill(Number(fs.readFileSync(pidFile, 'utf8').split('\n')[0]), 'SIGKILL')
    fs.rmSync(root, { recursive: true, force: true })
  }
})
