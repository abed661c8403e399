import type { DiscoveryRunDetails } from '@/lib/client/api'

type Refused = NonNullable<DiscoveryRunDetails['refused']>

/**
 * Entries a run left out of the surface. Image runs say which field broke which rule (field, rule,
 * message, and the entry's name when it had one); MCP runs say which tool and why.
 */
export function RefusedEntries({ refused, title }: { refused: Refused; title?: string }) {
  const image = refused.some((r) => r.field !== undefined || r.rule !== undefined)
  return (
    <div className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-xs text-red-900">
      <p className="font-semibold">{title ?? `${refused.length} entr${refused.length === 1 ? 'y' : 'ies'} refused and left out of the surface`}</p>
      <div className="mt-1 overflow-x-auto">
        <table className="w-full text-left">
          <thead className="text-red-800">
            <tr>
              <th className="py-1 pr-3 font-semibold">Entry</th>
              {image && <th className="py-1 pr-3 font-semibold">Field</th>}
              {image && <th className="py-1 pr-3 font-semibold">Rule</th>}
              <th className="py-1 font-semibold">{image ? 'Message' : 'Reason'}</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-red-100">
            {refused.map((r, i) => (
              <tr key={i} className="align-top" data-testid="refused-entry">
                <td className="py-1 pr-3 font-mono">{r.name ?? '—'}</td>
                {image && <td className="py-1 pr-3 font-mono">{r.field ?? '—'}</td>}
                {image && <td className="py-1 pr-3 font-mono">{r.rule ?? '—'}</td>}
                <td className="py-1">{r.message ?? r.reason ?? '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  )
}
