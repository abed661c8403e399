'use client'
import { IntentLink } from '@/components/ui/intent-link'
import { JsonDiff } from '@/components/discovery/value-diff'
import { Badge, type BadgeTone } from '@/components/ui/badge'
import { DefinitionList } from '@/components/ui/definition-list'
import { ExpandableRows, ExpandToggle } from '@/components/ui/expandable-rows'
import { Table, TBody, Td, Th, THead } from '@/components/ui/table'
import { type AuditEvent, changedPaths } from '@/lib/client/audit-api'
import { dateTime, timeAgo } from '@/lib/client/format'
import { hasPage, resourceHref } from '@/lib/client/links'

function actionTone(action: string): BadgeTone {
  if (action.endsWith('.deleted') || action.endsWith('.rejected') || action.endsWith('failed') || action.endsWith('.revoked')) return 'red'
  if (action.endsWith('.created') || action.endsWith('.accepted')) return 'green'
  if (action.startsWith('secret.') || action.startsWith('token.')) return 'violet'
  if (action.startsWith('auth.')) return 'indigo'
  if (action.endsWith('.updated') || action.endsWith('.uploaded')) return 'blue'
  return 'gray'
}

function Target({ event }: { event: AuditEvent }) {
  if (!event.kind && !event.resource) return <span className="text-slate-400">—</span>
  const name = `${event.namespace ? `${event.namespace}/` : ''}${event.resource ?? event.resourceId ?? ''}`
  const gone = event.action === 'resource.deleted'
  return (
    <span className="min-w-0 text-xs">
      <span className="text-slate-500">{event.kind}</span>{' '}
      {event.kind && hasPage(event.kind) && event.resource && !gone ? (
        <IntentLink
          href={resourceHref(event.kind, event.resource, event.namespace)}
          className="break-all font-mono text-slate-900 hover:underline"
          onClick={(e) => e.stopPropagation()}
        >
          {name}
        </IntentLink>
      ) : (
        <span className="break-all font-mono text-slate-900">{name}</span>
      )}
    </span>
  )
}

function Summary({ event }: { event: AuditEvent }) {
  const detail = event.detail ?? {}
  if (event.action === 'secret.rotated' || event.action === 'secret.reencrypted') {
    const keys = ((event.after as { spec?: { keys?: string[] } } | null)?.spec?.keys ?? []).join(', ')
    const what = event.action === 'secret.rotated' ? `values replaced${keys ? ` (keys ${keys})` : ''}` : 're-sealed'
    return (
      <span className="text-xs text-slate-600">
        {what}
        {typeof detail.keyId === 'string' ? `, sealed under key ${detail.keyId}` : ''}
      </span>
    )
  }
  if (event.before != null && event.after != null) {
    const paths = changedPaths(event.before, event.after)
    return <span className="break-words font-mono text-[11px] text-slate-600">{paths.length ? paths.join(', ') : 'no change to the document'}</span>
  }
  const note = typeof detail.comment === 'string' ? `“${detail.comment}”` : typeof detail.via === 'string' ? `via ${detail.via}` : null
  return note ? <span className="text-xs text-slate-600">{note}</span> : null
}

function EventDetails({ event }: { event: AuditEvent }) {
  const detail = Object.entries(event.detail ?? {})
  return (
    <div className="space-y-3 rounded-md border border-slate-200 bg-white p-3">
      <DefinitionList
        columns={3}
        items={[
          ['When', dateTime(event.at)],
          ['Actor', `${event.actor.name} (${event.actor.kind}${event.actor.id ? ` ${event.actor.id}` : ''})`],
          ['Request id', event.requestId ? <code className="break-all font-mono text-xs">{event.requestId}</code> : null],
          ['Resource id', event.resourceId ? <code className="break-all font-mono text-xs">{event.resourceId}</code> : null],
          ...detail.map(([k, v]): [string, React.ReactNode] => [
            k,
            <code key={k} className="break-all font-mono text-xs">
              {typeof v === 'string' ? v : JSON.stringify(v)}
            </code>,
          ]),
        ]}
      />
      {(event.before != null || event.after != null) && <JsonDiff before={event.before ?? undefined} after={event.after ?? undefined} />}
    </div>
  )
}

/** Audit events, newest first; a row opens to its detail and the before/after diff. */
export function AuditEventsTable({ events, showTarget = true }: { events: AuditEvent[]; showTarget?: boolean }) {
  return (
    <Table>
      <THead>
        <tr>
          <Th>When</Th>
          <Th>Actor</Th>
          <Th>Action</Th>
          {showTarget && <Th>Resource</Th>}
          <Th className="w-[35%]">Changed</Th>
        </tr>
      </THead>
      <TBody>
        <ExpandableRows
          items={events}
          rowKey={(event) => event.id}
          rowAttributes={(event) => ({ 'data-testid': 'audit-event-row', 'data-action': event.action })}
          columnCount={showTarget ? 5 : 4}
          details={(event) => <EventDetails event={event} />}
        >
          {(event, expanded) => (
            <>
              <Td className="whitespace-nowrap text-xs text-slate-700">
                <ExpandToggle expanded={expanded} label={`${expanded ? 'Hide' : 'Show'} details of ${event.action} ${timeAgo(event.at)}`}>
                  <span title={dateTime(event.at)}>{timeAgo(event.at)}</span>
                </ExpandToggle>
              </Td>
              <Td className="text-xs">
                <span className="font-medium text-slate-900">{event.actor.name}</span> <span className="text-slate-500">{event.actor.kind}</span>
              </Td>
              <Td>
                <Badge tone={actionTone(event.action)} className="font-mono font-normal">
                  {event.action}
                </Badge>
              </Td>
              {showTarget && (
                <Td className="max-w-72">
                  <Target event={event} />
                </Td>
              )}
              <Td>
                <Summary event={event} />
              </Td>
            </>
          )}
        </ExpandableRows>
      </TBody>
    </Table>
  )
}
