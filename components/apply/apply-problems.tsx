'use client'
// Every problem Apply found, in text order, each one button away from its line in the editor.
import type { ApiError, FieldError } from '@/lib/client/api'

function where(e: FieldError): string {
  if (e.document === undefined) return ''
  return `document ${e.document}${e.kind ? ` · ${e.kind}` : ''}${e.name ? ` ${e.name}` : ''}`
}

export function ApplyProblems({ error, onGoTo }: { error: ApiError; onGoTo: (line: number, column: number) => void }) {
  const refused = error.status === 422 || error.status === 403
  return (
    <div role="alert" data-testid="apply-errors" className="text-sm text-red-900">
      <div className="border-b border-red-100 px-4 py-3">
        <p className="font-semibold">{refused ? 'The manifest was refused; nothing was written.' : error.title}</p>
        <p className="mt-1">{error.message}</p>
      </div>
      {error.errors.length > 0 && (
        <ol className="divide-y divide-red-100">
          {error.errors.map((e, i) => (
            <li key={i} data-testid="field-error" data-line={e.line} className="flex flex-wrap items-baseline gap-x-3 gap-y-1 px-4 py-2">
              {e.line !== undefined ? (
                <button
                  type="button"
                  onClick={() => onGoTo(e.line!, e.column ?? 1)}
                  className="shrink-0 rounded border border-red-200 bg-white px-1.5 py-0.5 font-mono text-xs text-red-900 tabular-nums hover:bg-red-50"
                  aria-label={`Go to line ${e.line}, column ${e.column ?? 1}: ${e.field}`}
                >
                  {e.line}:{e.column ?? 1}
                </button>
              ) : (
                <span className="shrink-0 font-mono text-xs text-red-800">—</span>
              )}
              <span className="min-w-0 flex-1 basis-64">
                <span className="font-mono text-xs text-slate-900 [overflow-wrap:anywhere]">{e.field}</span>
                <span className="ml-2 font-mono text-xs text-red-800">{e.rule}</span>
                <span className="block break-words">{e.message}</span>
              </span>
              {where(e) && <span className="text-xs text-red-800">{where(e)}</span>}
            </li>
          ))}
        </ol>
      )}
    </div>
  )
}
