import type { FieldError } from '@/lib/client/api'

/** Per-field errors of a refused request (problem+json `errors`). */
export function FieldErrorsTable({ errors, showDocument = false }: { errors: FieldError[]; showDocument?: boolean }) {
  return (
    <div className="mt-2 overflow-x-auto">
      <table className="w-full text-left text-xs">
        <thead className="text-red-800">
          <tr>
            {showDocument && <th className="py-1 pr-3 font-semibold">Document</th>}
            {showDocument && <th className="py-1 pr-3 font-semibold">Kind / name</th>}
            {!showDocument && <th className="py-1 pr-3 font-semibold">Entry</th>}
            <th className="py-1 pr-3 font-semibold">Field</th>
            <th className="py-1 pr-3 font-semibold">Rule</th>
            <th className="py-1 font-semibold">Message</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-red-100">
          {errors.map((e, i) => (
            <tr key={i} className="align-top" data-testid="field-error">
              {showDocument && <td className="py-1 pr-3 tabular-nums">{e.document ?? '—'}</td>}
              {showDocument && (
                <td className="py-1 pr-3">
                  {e.kind ?? '—'}
                  {e.name && <span className="font-mono"> {e.name}</span>}
                </td>
              )}
              {!showDocument && <td className="py-1 pr-3 font-mono">{e.name ?? '—'}</td>}
              <td className="py-1 pr-3 font-mono">{e.field}</td>
              <td className="py-1 pr-3 font-mono">{e.rule}</td>
              <td className="py-1">{e.message}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}
