// Benchmarks' rows (scripts/bench/bench-rows.mjs): each figure judged against its target and against
// the last run on the same machine, a move of more than 15 % the wrong way called a regression.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { type BenchRow, judgeRows, reportRows, verdict } from '@/scripts/bench/bench-rows.mjs'

const ratio = (value: number): BenchRow => ({ name: 'gateway/direct at 20 connections', value, unit: '×', better: 'higher', target: 0.9 })
const cpu = (value: number): BenchRow => ({ name: 'gateway CPU per call', value, unit: 'ms', better: 'lower', target: 0.4 })

const dirs: string[] = []
afterEach(() => {
  vi.restoreAllMocks()
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true })
})

function resultsFile() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-rows-'))
  dirs.push(dir)
  return path.join(dir, 'nested', 'results.jsonl')
}

describe('bench rows', () => {
  it('meets a target at the line, from either side', () => {
    expect(verdict(ratio(0.9))).toBe('met')
    expect(verdict(ratio(0.89))).toBe('missed')
    expect(verdict(cpu(0.4))).toBe('met')
    expect(verdict(cpu(0.41))).toBe('missed')
    expect(verdict({ name: 'no target', value: 3, unit: 's', better: 'lower' })).toBeNull()
  })

  it('calls a move of more than 15 % the wrong way a regression, in the direction each row is better in', () => {
    const previous = { bench: 'b', date: '', commit: '', machine: 'm', node: '', load: [], rows: [ratio(1), cpu(1)] }
    const [r1, c1] = judgeRows([ratio(0.84), cpu(1.14)], previous)
    expect(r1.regression).toBe(true)
    expect(r1.change).toBeCloseTo(0.16)
    expect(c1.regression).toBe(false)
    const [r2, c2] = judgeRows([ratio(1.5), cpu(1.16)], previous)
    expect(r2.regression).toBe(false)
    expect(r2.change).toBeLessThan(0)
    expect(c2.regression).toBe(true)
    // A row the last run did not have, or had as zero, is not compared.
    const [fresh] = judgeRows([{ name: 'new row', value: 5, unit: 'ms', better: 'lower' }], previous)
    expect(fresh).toMatchObject({ before: null, change: null, regression: false })
    const [zero] = judgeRows([cpu(1)], { ...previous, rows: [cpu(0)] })
    expect(zero.change).toBeNull()
    // A figure this run could not have (a watcher never reached) against one the last run had.
    const [lost] = judgeRows([cpu(Infinity)], previous)
    expect(lost).toMatchObject({ verdict: 'missed', regression: true })
  })

  it('compares with the last run of the same benchmark on the same machine, and keeps each run', () => {
    vi.spyOn(console, 'log').mockImplementation(() => {})
    const file = resultsFile()
    const options = { file, machine: '2 × Test CPU, 24 GiB', commit: 'abc1234' }
    const first = reportRows('gateway', [ratio(0.8)], options)
    expect(first[0].before).toBeNull()
    reportRows('discovery', [{ name: 'gateway/direct at 20 connections', value: 0.1, unit: '×', better: 'higher' }], options)
    reportRows('gateway', [ratio(0.6)], { ...options, machine: '8 × Other CPU, 64 GiB' })
    const second = reportRows('gateway', [ratio(0.66)], options)
    expect(second[0]).toMatchObject({ before: 0.8, regression: true, verdict: 'missed' })
    const printed = vi.mocked(console.log).mock.calls.map(([line]) => String(line))
    expect(printed.some((line) => line.startsWith('REGRESSION: "gateway/direct at 20 connections" is 18 % worse than in the last run'))).toBe(true)
    const kept = fs
      .readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line))
    expect(kept).toHaveLength(4)
    expect(kept[3]).toMatchObject({ bench: 'gateway', commit: 'abc1234', machine: '2 × Test CPU, 24 GiB', rows: [ratio(0.66)] })
  })

  it('reads past a line cut short, and keeps nothing of a profiled run', () => {
    vi.spyOn(console, 'log').mockImplementation(() => {})
    const file = resultsFile()
    const options = { file, machine: 'm', commit: 'c' }
    reportRows('gateway', [cpu(0.5)], options)
    fs.appendFileSync(file, '{"bench":"gateway","rows":[')
    const profiled = reportRows('gateway', [cpu(0.9)], { ...options, notKept: 'profiled' })
    expect(profiled[0]).toMatchObject({ before: 0.5, regression: true })
    const after = reportRows('gateway', [cpu(0.55)], options)
    expect(after[0]).toMatchObject({ before: 0.5, regression: false })
    expect(reportRows('gateway', [cpu(0.55)], options)[0].before).toBe(0.55)
  })
})
