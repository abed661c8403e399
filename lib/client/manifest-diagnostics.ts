// Apply's problems as editor marks: each from its line and column to the end of the word or value
// there (or of the line, when it points at a gap), with where and what in its message. Pure.
import type { Diagnostic } from '@codemirror/lint'
import type { Text } from '@codemirror/state'
import type { FieldError } from '@/lib/errors/app-error'

/** Offset of a 1-based line and column, kept inside the text whatever they say. */
export function offsetOf(doc: Text, line: number, column: number): number {
  const l = doc.line(Math.min(Math.max(1, line), doc.lines))
  return l.from + Math.min(Math.max(0, column - 1), l.length)
}

export function diagnosticsOf(doc: Text, problems: readonly FieldError[]): Diagnostic[] {
  return problems.map((p) => {
    const from = offsetOf(doc, p.line ?? 1, p.column ?? 1)
    const line = doc.lineAt(from)
    const rest = line.text.slice(from - line.from)
    const token = /^("([^"\\]|\\.)*"|'[^']*'|[^\s,{}[\]]+)/.exec(rest)
    const to = token ? from + token[0].length : line.to
    const where = p.document !== undefined ? `document ${p.document}${p.kind ? ` (${p.kind}${p.name ? ` ${p.name}` : ''})` : ''}, ` : ''
    return { from, to: Math.max(from, to), severity: 'error', source: p.rule, message: `${where}${p.field}: ${p.message} (${p.rule})` }
  })
}
