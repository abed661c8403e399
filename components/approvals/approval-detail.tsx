'use client'
import { LevelBadge } from '@/components/tools/badges'
import { CodeBlock } from '@/components/ui/code-block'
import { DefinitionList } from '@/components/ui/definition-list'
import { IntentLink } from '@/components/ui/intent-link'
import { LocalDateTime, TimeAgo } from '@/components/ui/time'
import type { ApprovalView } from '@/lib/client/approvals-api'
import { count } from '@/lib/client/format'
import type { RateLimit } from '@/lib/effective-tools/types'
import { ApprovalStatusBadge, ExecutionBadge, TimeLeft } from './approval-badges'
import { ArgumentSummary, HighRiskTag, PolicyReasons } from './argument-summary'

interface Policy {
  source?: string
  level?: string
  expirySeconds?: number
  expirySource?: string
}

const POLICY_SOURCE = {
  tool: "the tool's own sideEffects.requiresApproval",
  policy: 'the SideEffectPolicy of its level',
  default: "Toolroom's default for its level",
  policy_rule: 'a Policy rule (below)',
} as Record<string, string>

/** Everything an approver weighs: who asks, for what, with which arguments, under which policy. */
export function ApprovalDetail({ approval, children }: { approval: ApprovalView; children?: React.ReactNode }) {
  const policy = (approval.policy ?? {}) as Policy
  return (
    <div className="space-y-4" data-testid="approval-detail" data-approval-id={approval.id}>
      <div className="flex flex-wrap items-center gap-2">
        <h3 className="min-w-0 break-all font-mono text-sm font-semibold text-slate-900">{approval.tool.id}</h3>
        <LevelBadge level={approval.tool.level} />
        {approval.status === 'pending' && approval.highRisk && <HighRiskTag />}
        <ApprovalStatusBadge status={approval.status} />
        <ExecutionBadge execution={approval.execution} />
      </div>
      <div className="space-y-1.5">
        <p className="text-base font-semibold text-slate-900 [overflow-wrap:anywhere]" data-testid="approval-detail-line">
          {approval.summaryLine}
        </p>
        {approval.tool.description && (
          <p className="text-sm text-slate-700 [overflow-wrap:anywhere]" data-testid="approval-tool-description">
            {approval.tool.description}
          </p>
        )}
        <PolicyReasons rules={approval.policyRules} />
        <ArgumentSummary summary={approval.summary} />
      </div>
      <DefinitionList
        items={[
          [
            'Agent',
            <IntentLink key="agent" className="text-sky-700 hover:underline" href={`/agents/${approval.agent.id}`}>
              {approval.agent.namespace}/{approval.agent.name}
            </IntentLink>,
          ],
          [
            'On behalf of',
            approval.onBehalfOf ? (
              <span title={`${approval.onBehalfOf.subject} at ${approval.onBehalfOf.issuer}`}>
                {approval.onBehalfOf.displayName} <span className="text-xs text-slate-500">({approval.onBehalfOf.issuer})</span>
                {approval.onBehalfOfUntil && (
                  <span className="block text-xs text-slate-600">
                    can act for them until <LocalDateTime iso={approval.onBehalfOfUntil} />
                    {approval.status === 'pending' && (
                      <>
                        {' '}
                        (<TimeLeft expiresAt={approval.onBehalfOfUntil} />)
                      </>
                    )}
                    , before the request expires: approved later, the call fails instead of acting for them
                  </span>
                )}
              </span>
            ) : (
              'nobody: the agent acts on its own'
            ),
          ],
          ['Unit', approval.agent.unit ?? '—'],
          [
            'Asked',
            <>
              <LocalDateTime iso={approval.requestedAt} /> (<TimeAgo iso={approval.requestedAt} />)
            </>,
          ],
          [
            approval.status === 'pending' ? 'Expires' : 'Would have expired',
            approval.status === 'pending' ? <TimeLeft expiresAt={approval.expiresAt} /> : <LocalDateTime iso={approval.expiresAt} />,
          ],
          ['Idempotency key', approval.idempotencyKey ? <code className="break-all font-mono text-xs">{approval.idempotencyKey}</code> : '—'],
          [
            'Required by',
            `${POLICY_SOURCE[policy.source ?? ''] ?? policy.source ?? '—'}${policy.expirySource ? `; expiry from ${policy.expirySource === 'default' ? 'the default' : `the ${policy.expirySource}`}` : ''}`,
          ],
          ['Rate limits when asked', <RateLimitContext key="limits" value={approval.rateLimit} />],
          [
            'Call',
            <code key="call" className="font-mono text-xs">
              {approval.callId}
            </code>,
          ],
        ]}
      />
      <CodeBlock
        title="Arguments (redacted as the tool's observability.redactFields says)"
        code={JSON.stringify(approval.args ?? {}, null, 2)}
        maxHeight="16rem"
      />
      {approval.decision && (
        <div className="rounded-md border border-slate-200 bg-slate-50 p-3 text-sm" data-testid="approval-decision">
          <p>
            <span className="font-semibold capitalize">{approval.status}</span>
            {approval.decision.by ? ` by ${approval.decision.by}` : ''}{' '}
            {approval.decision.at && (
              <>
                on <LocalDateTime iso={approval.decision.at} />
              </>
            )}
          </p>
          {approval.decision.comment && <p className="mt-1 whitespace-pre-wrap text-slate-700">“{approval.decision.comment}”</p>}
          {approval.execution?.error && <p className="mt-1 text-red-800">Execution: {approval.execution.error}</p>}
        </div>
      )}
      {children}
    </div>
  )
}

function RateLimitContext({ value }: { value: ApprovalView['rateLimit'] }) {
  if (!value) return <>—</>
  const limits = (l: RateLimit | undefined) =>
    [l?.callsPerMinute != null && `${count(l.callsPerMinute)} a minute`, l?.callsPerDay != null && `${count(l.callsPerDay)} a day`]
      .filter(Boolean)
      .join(', ') || 'no limit'
  return (
    <span className="flex flex-wrap gap-x-3 text-xs" data-testid="approval-rate-limits">
      <span>tool: {limits(value.tool)}</span>
      <span>agent: {limits(value.agent)}</span>
    </span>
  )
}
