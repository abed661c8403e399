'use client'
import { IntentLink } from '@/components/ui/intent-link'
import { Card } from '@/components/ui/card'
import { AuditEventsList } from './audit-events-list'

/** A resource's own audit events: who changed it, when, and how. */
export function ResourceHistory({ kind, namespace, name }: { kind: string; namespace: string; name: string }) {
  const search = new URLSearchParams({ kind, namespace, resource: name })
  return (
    <Card
      id="history"
      title="History"
      description="Every change of this resource, newest first, from the audit log."
      bodyClassName=""
      actions={
        <IntentLink href={`/audit?${search}`} className="text-xs font-medium text-slate-600 hover:text-slate-900 hover:underline">
          Open in the audit log
        </IntentLink>
      }
    >
      <AuditEventsList filters={{ kind, namespace, resource: name }} showTarget={false} pageSize={10} emptyTitle="No recorded changes" />
    </Card>
  )
}
