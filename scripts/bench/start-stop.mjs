// `npm run bench:start-stop`: how long `npm start` takes again on a built tree (to the "ready" line,
// when /api/health answers through the gateway), and how long Ctrl-C takes until every process it
// started has exited (the web server, gateway, workers, demo endpoints and traffic, the embedded
// PostgreSQL). The first start is a warm-up (it may create the database, seed the demo fleet and
// build); the measured ones follow on the same data. Each stop comes right after "ready", while the
// workers' first discovery sweep is still running, as when someone starts and stops at once.
// `npm start` is run through npm's own CLI, as a person runs it (npm's start is part of the wait), and
// stopped as a terminal's Ctrl-C does: SIGINT to its process group. At ready each process's CPU time so
// far is printed, to show where a start's time goes.
//   BENCH_START_RUNS (default 3), BENCH_START_DATA_DIR (default .data/bench-start), BENCH_PROFILE_DIR
//   (CPU profiles of start.mjs itself: it is then run without npm).
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { benchName, reportRows } from './bench-rows.mjs'

const RUNS = Number(process.env.BENCH_START_RUNS ?? 3)
const DATA_DIR = path.resolve(process.env.BENCH_START_DATA_DIR ?? '.data/bench-start')
const TARGET_S = { start: 2, stop: 2 }

async function freePort() {
  const server = net.createServer()
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address()
  await new Promise((resolve) => server.close(resolve))
  return port
}

/** Every process below `pid` (PostgreSQL's too: it runs in a group of its own but is still a child). */
function descendants(pid) {
  const parents = new Map()
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8')
      // The command may hold spaces and parentheses: the fields after the last ')' are fixed.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
      parents.set(Number(entry), ppid)
    } catch {
      // gone meanwhile
    }
  }
  const found = new Set()
  let frontier = [pid]
  while (frontier.length) {
    const next = []
    for (const [child, parent] of parents) {
      if (!frontier.includes(parent) || found.has(child)) continue
      found.add(child)
      next.push(child)
    }
    frontier = next
  }
  return [...found]
}

const alive = (pid) => {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

// /proc counts CPU time in clock ticks: USER_HZ, 100 on Linux.
const TICKS_PER_S = 100

/** CPU seconds of `pid` so far, and of its children it has waited for (the steps that ran and exited). */
function cpuSeconds(pid) {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')
    // utime, stime, cutime, cstime: fields 14–17 of stat(5), 12–15 after the command.
    const [utime, stime, cutime, cstime] = fields.slice(11, 15).map(Number)
    return { own: (utime + stime) / TICKS_PER_S, children: (cutime + cstime) / TICKS_PER_S }
  } catch {
    return null
  }
}

/** A short name for a process: its script or program, without the directories. */
function processName(pid) {
  try {
    const argv = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean)
    // The first argument that is neither an option nor an option's value (a preload, a condition).
    const script = argv.find((a, i) => i > 0 && !a.startsWith('-') && !/^(-r|--require|--import|--conditions)$/.test(argv[i - 1])) ?? argv[0]
    const name = path.basename(script ?? String(pid))
    return name === 'next' ? `next ${argv[argv.indexOf(script) + 1] ?? ''}`.trim() : name
  } catch {
    return String(pid)
  }
}

/** Each process's CPU seconds at this moment, the biggest first; PostgreSQL's processes summed as one. */
function cpuAtReady(rootPid) {
  const byName = new Map()
  const add = (name, seconds) => byName.set(name, (byName.get(name) ?? 0) + seconds)
  for (const pid of [rootPid, ...descendants(rootPid)]) {
    const cpu = cpuSeconds(pid)
    if (!cpu) continue
    const name = processName(pid)
    add(/postgres/.test(name) ? 'postgres' : name, cpu.own)
    // What the process waited for is counted by the process itself, except steps that exited.
    if (/start\.mjs/.test(name)) add('steps that exited', cpu.children)
  }
  return [...byName].sort((a, b) => b[1] - a[1]).map(([name, seconds]) => `${name} ${seconds.toFixed(2)}`)
}

function npmStart() {
  if (process.env.BENCH_PROFILE_DIR)
    return [process.execPath, ['--cpu-prof', `--cpu-prof-dir=${path.resolve(process.env.BENCH_PROFILE_DIR)}`, 'scripts/start.mjs']]
  // npm's CLI as `npm run` gave it to this bench, else the one on the PATH.
  return process.env.npm_execpath ? [process.execPath, [process.env.npm_execpath, 'start']] : ['npm', ['start']]
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]

async function oneRun(label, port) {
  const [command, args] = npmStart()
  const t0 = performance.now()
  const child = spawn(command, args, {
    env: { ...process.env, DATABASE_URL: '', TOOLROOM_DATA_DIR: DATA_DIR, PORT: String(port), HOST: '127.0.0.1', CI: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
    // A process group of its own, as a terminal gives a command: Ctrl-C reaches the group.
    detached: true,
  })
  const steps = []
  let output = ''
  const ready = new Promise((resolve, reject) => {
    const read = (chunk) => {
      output += chunk
      for (const line of String(chunk).split('\n')) {
        const step = /^\[toolroom\] (.*) \((\d+\.\d) s\)/.exec(line)
        if (step) steps.push(`${step[1].replace(/ at http.*$/, '').slice(0, 40)} ${step[2]} s`)
        if (line.includes('[toolroom] ready at')) resolve(performance.now())
      }
    }
    child.stdout.on('data', read)
    child.stderr.on('data', (d) => (output += d))
    child.once('exit', (code) => reject(new Error(`npm start exited (${code}) before it was ready:\n${output.slice(-4000)}`)))
  })
  const readyAt = await ready
  const health = await fetch(`http://127.0.0.1:${port}/api/health`)
  if (!health.ok) throw new Error(`ready, but /api/health answered ${health.status}`)
  const cpu = cpuAtReady(child.pid)
  const started = descendants(child.pid)
  const stopT0 = performance.now()
  const exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)))
  process.kill(-child.pid, 'SIGINT')
  const code = await exited
  const stopS = (performance.now() - stopT0) / 1000
  const left = started.filter(alive)
  const result = { label, startS: (readyAt - t0) / 1000, stopS, code, processes: started.length, left: left.length, steps }
  console.log(
    `${label}: ready in ${result.startS.toFixed(2)} s; stopped in ${stopS.toFixed(2)} s (exit ${code}), ${started.length} processes, ${left.length} left running` +
      `\n  steps: ${steps.join('; ')}\n  CPU seconds at ready: ${cpu.join(', ')}`,
  )
  if (left.length) {
    console.log(`  left running: ${left.join(', ')}: killing them`)
    for (const pid of left) process.kill(pid, 'SIGKILL')
  }
  return result
}

console.log(
  `bench:start-stop: ${os.cpus().length} × ${os.cpus()[0]?.model}, Node ${process.version}, load ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
)
console.log(`data: ${DATA_DIR} (a warm-up start, then ${RUNS} measured)`)
const port = await freePort()
await oneRun('warm-up', port)
const runs = []
for (let i = 1; i <= RUNS; i++) runs.push(await oneRun(`run ${i}`, port))
const start = median(runs.map((r) => r.startS))
const stop = median(runs.map((r) => r.stopS))
const leftovers = runs.reduce((n, r) => n + r.left, 0)
console.log(
  `\nload after: ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
)
// Met or missed against the targets: the rows below say it.
console.log(`processes left running: ${leftovers}`)
reportRows(benchName('bench:start-stop', ['BENCH_START_RUNS']), [
  { name: 'npm start again (built), to healthy, median', value: start, unit: 's', better: 'lower', target: TARGET_S.start },
  { name: 'Ctrl-C to everything stopped, median', value: stop, unit: 's', better: 'lower', target: TARGET_S.stop },
])
process.exitCode = leftovers > 0 || runs.some((r) => r.code !== 0) ? 1 : 0
