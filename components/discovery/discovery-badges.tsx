import { IntentLink } from '@/components/ui/intent-link'
import { Badge, type BadgeTone } from '@/components/ui/badge'
import type { DiscoverySubjectKind } from '@/lib/client/api'
import { humanize } from '@/lib/client/format'
import { resourceHref } from '@/lib/client/links'

const RUN_TONE: Record<string, BadgeTone> = { running: 'blue', succeeded: 'green', failed: 'red' }

export function RunStatusBadge({ status }: { status: string }) {
  return (
    <Badge tone={RUN_TONE[status] ?? 'gray'}>
      {status === 'running' && <span aria-hidden className="h-1.5 w-1.5 animate-pulse rounded-full bg-sky-600" />}
      {status}
    </Badge>
  )
}

const TRIGGER_NOTE: Record<string, string> = {
  created: 'the subject was registered',
  rotation: 'the image digest changed',
  changed: 'the address or transport changed',
  manual: 'someone asked for it ("Refresh now" or the API)',
  periodic: 'the periodic sweep',
}

export function TriggerLabel({ trigger }: { trigger: string }) {
  return (
    <span className="text-xs text-slate-700" title={TRIGGER_NOTE[trigger] ? `Run because ${TRIGGER_NOTE[trigger]}` : undefined}>
      {trigger}
    </span>
  )
}

const CHANGE_TONE: Record<string, BadgeTone> = { applied: 'gray', pending_review: 'amber', accepted: 'green', rejected: 'rose' }
const CHANGE_NOTE: Record<string, string> = {
  applied: 'Agents saw this change as soon as it was discovered',
  pending_review: 'Held by pinning: agents keep the accepted definitions until someone accepts it',
  accepted: 'Accepted: agents see the new definitions',
  rejected: 'Rejected: agents keep the accepted definitions',
}

export function ChangeStatusBadge({ status }: { status: string }) {
  return (
    <Badge tone={CHANGE_TONE[status] ?? 'gray'} title={CHANGE_NOTE[status]}>
      {humanize(status)}
    </Badge>
  )
}

const CHECK_TONE: Record<string, BadgeTone> = { pass: 'green', fail: 'red', unknown: 'gray' }

export function CheckBadge({ status }: { status: string }) {
  return <Badge tone={CHECK_TONE[status] ?? 'gray'}>{status}</Badge>
}

const KIND_LABEL: Record<DiscoverySubjectKind, string> = { Agent: 'Agent', Unit: 'Unit', LanguageTool: 'MCP server' }

/** The subject of a run or change, linked to its page. */
export function SubjectLink({ kind, id, namespace, name }: { kind: DiscoverySubjectKind; id: string; namespace: string; name: string }) {
  return (
    <span className="inline-flex min-w-0 flex-col">
      <IntentLink href={resourceHref(kind, id)} className="truncate font-mono text-[13px] font-medium text-sky-800 hover:underline">
        {namespace}/{name}
      </IntentLink>
      <span className="text-[11px] uppercase tracking-wide text-slate-500">{KIND_LABEL[kind] ?? kind}</span>
    </span>
  )
}
