export interface BenchRow {
  name: string
  value: number
  unit: string
  better: 'higher' | 'lower'
  target?: number
}
export interface BenchRun {
  bench: string
  date: string
  commit: string
  machine: string
  node: string
  load: number[]
  rows: BenchRow[]
}
export interface JudgedRow extends BenchRow {
  verdict: 'met' | 'missed' | null
  before: number | null
  change: number | null
  regression: boolean
}
export declare const REGRESSION: number
export declare function machine(): string
export declare function benchName(base: string, settingNames: string[]): string
export declare function verdict(row: BenchRow): 'met' | 'missed' | null
export declare function worsening(row: BenchRow, before: unknown): number | null
export declare function lastRun(runs: BenchRun[], bench: string, machineName: string): BenchRun | null
export declare function judgeRows(rows: BenchRow[], previous: BenchRun | null): JudgedRow[]
export declare function formatRows(bench: string, judged: JudgedRow[], previous: BenchRun | null): string[]
export declare function reportRows(
  bench: string,
  rows: BenchRow[],
  options?: { file?: string; machine?: string; now?: Date; commit?: string; notKept?: string | null },
): JudgedRow[]
