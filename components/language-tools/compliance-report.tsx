import { CheckBadge } from '@/components/discovery/discovery-badges'
import { Card } from '@/components/ui/card'
import type { ComplianceReport } from '@/lib/client/api'

const SUMMARY: Record<string, string> = {
  pass: 'Every requirement of the LanguageTool checklist is met.',
  fail: 'At least one requirement of the LanguageTool checklist is not met.',
  unknown: 'Some requirements could not be checked.',
}

/** The LanguageTool checklist as the last successful discovery found it, item by item. */
export function ComplianceReportCard({ compliance }: { compliance: ComplianceReport | null | undefined }) {
  const items = compliance?.items ?? []
  const counts = { pass: 0, fail: 0, unknown: 0 } as Record<string, number>
  for (const i of items) counts[i.status] = (counts[i.status] ?? 0) + 1
  return (
    <Card
      id="compliance"
      title={<span className="flex items-center gap-2">Compliance {compliance && <CheckBadge status={compliance.status} />}</span>}
      description={
        compliance
          ? `${SUMMARY[compliance.status] ?? ''} ${counts.pass} passed, ${counts.fail} failed, ${counts.unknown} unknown; from the last successful discovery.`
          : 'The language-operator checklist, probed at each successful discovery.'
      }
      bodyClassName=""
    >
      {items.length === 0 ? (
        <p className="px-4 py-4 text-sm text-slate-500">No report yet: no discovery of this server has succeeded.</p>
      ) : (
        <ul className="divide-y divide-slate-100">
          {items.map((item) => (
            <li key={item.id} data-testid="compliance-item" data-item-id={item.id} data-status={item.status} className="flex gap-3 px-4 py-2.5">
              <span className="w-16 shrink-0 pt-0.5">
                <CheckBadge status={item.status} />
              </span>
              <div className="min-w-0">
                <p className="text-sm font-medium text-slate-900">{item.requirement}</p>
                <p className={`mt-0.5 break-words text-xs ${item.status === 'fail' ? 'text-red-800' : 'text-slate-600'}`}>{item.detail}</p>
              </div>
            </li>
          ))}
        </ul>
      )}
    </Card>
  )
}
