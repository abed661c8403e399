// What the CLI prints: colour only on a terminal (and never with NO_COLOR; FORCE_COLOR forces it),
// aligned tables, YAML and JSON.
import { stringify } from 'yaml'

type Stream = NodeJS.WriteStream

export function colourOn(stream: Stream): boolean {
  const force = process.env.FORCE_COLOR
  if (force !== undefined && force !== '' && force !== '0') return true
  if (process.env.NO_COLOR !== undefined && process.env.NO_COLOR !== '') return false
  return Boolean(stream.isTTY) && process.env.TERM !== 'dumb'
}

const CODES = { red: [31, 39], green: [32, 39], yellow: [33, 39], cyan: [36, 39], bold: [1, 22], dim: [2, 22] } as const
export type Style = keyof typeof CODES

export function painter(stream: Stream) {
  const on = colourOn(stream)
  return (style: Style, text: string) => (on ? `\u001b[${CODES[style][0]}m${text}\u001b[${CODES[style][1]}m` : text)
}

export const out = (text = '') => process.stdout.write(`${text}\n`)
export const err = (text = '') => process.stderr.write(`${text}\n`)

/** Columns padded to the widest cell, three spaces apart, headers in capitals (as kubectl prints them). */
export function table(headers: string[], rows: (string | number | null | undefined)[][]): string {
  const cells = [headers.map((h) => h.toUpperCase()), ...rows.map((r) => r.map((c) => (c === null || c === undefined || c === '' ? '-' : String(c))))]
  const widths = headers.map((_, i) => Math.max(...cells.map((r) => r[i].length)))
  return cells.map((r) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]))).join('   ')).join('\n')
}

export function yamlText(value: unknown): string {
  return stringify(value, { lineWidth: 0, aliasDuplicateObjects: false })
}

export type Format = 'table' | 'yaml' | 'json'

export function printValue(value: unknown, format: Exclude<Format, 'table'>) {
  process.stdout.write(format === 'json' ? `${JSON.stringify(value, null, 2)}\n` : yamlText(value))
}

/** How long ago, as kubectl's AGE column says it (45s, 3m, 5h, 12d). */
export function age(iso: string | null | undefined, now = Date.now()): string {
  if (!iso) return '-'
  const seconds = Math.max(0, Math.round((now - Date.parse(iso)) / 1000))
  if (seconds < 120) return `${seconds}s`
  if (seconds < 7200) return `${Math.round(seconds / 60)}m`
  if (seconds < 172800) return `${Math.round(seconds / 3600)}h`
  return `${Math.round(seconds / 86400)}d`
}
