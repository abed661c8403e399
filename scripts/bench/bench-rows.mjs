// Every benchmark ends with its rows: each figure against its target (met or missed), and against the
// same row of the last run of that benchmark on this machine, where a move of more than 15 % the wrong
// way is called a regression, to be called out in BENCHMARKS.md (its opening says how). Runs are kept
// one JSON line each in BENCH_RESULTS (default .data/bench-results.jsonl: the checkout's data
// directory, which outlives runs and is never committed). A profiled run (BENCH_PROFILE_DIR) is
// compared but not kept: the profiler's cost would make the next plain run look faster than it is.
// So is a run its caller says is not comparable (`notKept`: the reason).
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'

/** A row that moved the wrong way by more than this fraction since the last run on the machine regressed. */
export const REGRESSION = 0.15

/** The machine runs are compared on: its CPUs and memory, not its name (a clean clone on it is the same machine). */
export function machine() {
  const cpus = os.cpus()
  return `${cpus.length} × ${cpus[0]?.model.trim() ?? 'unknown CPU'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB`
}

/**
 * The benchmark's name with the settings (environment variables) it ran under that change what it
 * measures, those set only: runs are compared like with like.
 */
export function benchName(base, settingNames) {
  const set = settingNames.filter((name) => process.env[name] !== undefined && process.env[name] !== '')
  return set.length === 0 ? base : `${base} (${set.map((name) => `${name}=${process.env[name]}`).join(', ')})`
}

/** 'met' or 'missed' against the row's target; null when it has none. */
export function verdict(row) {
  if (row.target === undefined) return null
  const met = row.better === 'higher' ? row.value >= row.target : row.value <= row.target
  return met ? 'met' : 'missed'
}

/** How much worse `row` is than `before`, as a fraction of `before` (negative when better); null if it cannot be said. */
export function worsening(row, before) {
  if (typeof before !== 'number' || !Number.isFinite(before) || before <= 0) return null
  // A figure that could not be had this time (a watcher never reached: Infinity) is as bad as it gets.
  if (!Number.isFinite(row.value)) return row.value === (row.better === 'lower' ? Infinity : -Infinity) ? Infinity : null
  return row.better === 'higher' ? (before - row.value) / before : (row.value - before) / before
}

/** The newest run of `bench` on `machineName` in `runs` (oldest first), or null. */
export function lastRun(runs, bench, machineName) {
  for (let i = runs.length - 1; i >= 0; i--) if (runs[i].bench === bench && runs[i].machine === machineName) return runs[i]
  return null
}

/** Each row with its verdict, the last run's figure for it, the change and whether that is a regression. */
export function judgeRows(rows, previous) {
  const before = new Map((previous?.rows ?? []).map((r) => [r.name, r.value]))
  return rows.map((row) => {
    const change = worsening(row, before.get(row.name))
    return { ...row, verdict: verdict(row), before: before.get(row.name) ?? null, change, regression: change !== null && change > REGRESSION }
  })
}

const figure = (value, unit) => (!Number.isFinite(value) ? '—' : unit === '×' ? `${value.toFixed(2)}×` : `${Number(value.toPrecision(3))} ${unit}`)

/** The rows as a Markdown table (ready for BENCHMARKS.md), then one line per regression. */
export function formatRows(bench, judged, previous) {
  const lines = [
    `\n${bench}: rows${previous ? ` (the last run on this machine: ${previous.date}, ${previous.commit}, load ${previous.load.join(' ')})` : ' (no earlier run on this machine to compare with)'}`,
    '| row | this run | target | | last run | change |',
    '|---|---|---|---|---|---|',
  ]
  for (const r of judged) {
    const target = r.target === undefined ? '—' : `${r.better === 'higher' ? '≥' : '≤'} ${figure(r.target, r.unit)}`
    const before = r.before === null ? '—' : figure(r.before, r.unit)
    const by = r.change === Infinity ? 'worse: not measured' : `${r.change > 0 ? 'worse' : 'better'} by ${Math.abs(r.change * 100).toFixed(0)} %`
    const change = r.change === null ? '—' : `${by}${r.regression ? ' **regression**' : ''}`
    lines.push(`| ${r.name} | ${figure(r.value, r.unit)} | ${target} | ${r.verdict ?? ''} | ${before} | ${change} |`)
  }
  for (const r of judged.filter((j) => j.regression)) {
    const what = r.change === Infinity ? 'could not be measured in this run' : `is ${(r.change * 100).toFixed(0)} % worse than in`
    lines.push(
      `REGRESSION: "${r.name}" ${what} the last run on this machine (${figure(r.before, r.unit)} → ${figure(r.value, r.unit)}): measure it again on a quiet machine, and if it holds, call it out in BENCHMARKS.md.`,
    )
  }
  return lines
}

function readRuns(text) {
  const runs = []
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue
    try {
      runs.push(JSON.parse(line))
    } catch {
      // A line cut short by a run killed while writing it: the others still count.
    }
  }
  return runs
}

function currentCommit() {
  try {
    const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim()
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim()
    return dirty === '' ? commit : `${commit}+changes`
  } catch {
    return 'unknown'
  }
}

/**
 * Prints `rows` ({name, value, unit, better: 'higher' | 'lower', target?}) judged against their
 * targets and this machine's last run of `bench`, and keeps this run. Returns the judged rows.
 */
export function reportRows(bench, rows, options = {}) {
  const file = path.resolve(options.file ?? process.env.BENCH_RESULTS ?? '.data/bench-results.jsonl')
  const kept = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : ''
  const runs = readRuns(kept)
  const here = options.machine ?? machine()
  const previous = lastRun(runs, bench, here)
  const judged = judgeRows(rows, previous)
  for (const line of formatRows(bench, judged, previous)) console.log(line)
  const notKept = options.notKept ?? (process.env.BENCH_PROFILE_DIR ? 'profiled' : null)
  if (notKept) console.log(`(${notKept}: compared, not kept)`)
  else {
    const run = {
      bench,
      date: (options.now ?? new Date()).toISOString(),
      commit: options.commit ?? currentCommit(),
      machine: here,
      node: process.version,
      load: os.loadavg().map((l) => Number(l.toFixed(1))),
      rows: rows.map(({ name, value, unit, better, target }) => ({ name, value, unit, better, ...(target === undefined ? {} : { target }) })),
    }
    fs.mkdirSync(path.dirname(file), { recursive: true })
    // After a line cut short, on a line of its own: the cut line stays unreadable, this one does not.
    const cutShort = kept !== '' && !kept.endsWith('\n')
    fs.appendFileSync(file, `${cutShort ? '\n' : ''}${JSON.stringify(run)}\n`)
  }
  return judged
}
