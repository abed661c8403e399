'use client'
// One explanation, readable: the decision and its sentence first, then the gateway's pipeline step
// by step, the sources of the name, and the details each step looked at.
import { ApprovalBadge, LevelBadge } from '@/components/tools/badges'
import { Badge, type BadgeTone } from '@/components/ui/badge'
import type { Explanation } from '@/lib/client/explain-api'
import { count } from '@/lib/client/format'
import { FixLink } from './fix-link'
import { shortProvenance, ToolSourceLink } from '@/components/effective-tools/tool-source'

const DECISION: Record<Explanation['decision'], { label: string; tone: BadgeTone; box: string }> = {
  allowed: { label: 'Allowed', tone: 'green', box: 'border-emerald-300 bg-emerald-50 text-emerald-950' },
  approval_required: { label: 'Approval required', tone: 'indigo', box: 'border-indigo-300 bg-indigo-50 text-indigo-950' },
  denied: { label: 'Denied', tone: 'red', box: 'border-red-300 bg-red-50 text-red-950' },
  unknown_tool: { label: 'Unknown tool', tone: 'red', box: 'border-red-300 bg-red-50 text-red-950' },
  invalid_arguments: { label: 'Invalid arguments', tone: 'amber', box: 'border-amber-300 bg-amber-50 text-amber-950' },
  rate_limited: { label: 'Rate limited', tone: 'orange', box: 'border-orange-300 bg-orange-50 text-orange-950' },
}

const STEP_LABEL: Record<Explanation['steps'][number]['step'], string> = {
  'effective-set': 'Effective set and safety',
  executor: 'Run by the gateway',
  arguments: 'Arguments',
  policies: 'Policies',
  'rate-limits': 'Rate limits',
  idempotency: 'Idempotency key',
  approval: 'Approval',
}

const OUTCOME: Record<Explanation['steps'][number]['outcome'], { mark: string; className: string; label: string }> = {
  passed: { mark: '✓', className: 'bg-emerald-100 text-emerald-800', label: 'passed' },
  refused: { mark: '✕', className: 'bg-red-100 text-red-800', label: 'refused' },
  held: { mark: '⏸', className: 'bg-indigo-100 text-indigo-800', label: 'waits for approval' },
  'not-reached': { mark: '–', className: 'bg-slate-100 text-slate-500', label: 'not reached' },
  skipped: { mark: '–', className: 'bg-slate-100 text-slate-500', label: 'skipped' },
}

const ROLE: Record<Explanation['candidates'][number]['role'], { label: string; tone: BadgeTone }> = {
  winner: { label: 'wins', tone: 'green' },
  shadowed: { label: 'shadowed', tone: 'amber' },
  reserved: { label: 'never competed', tone: 'gray' },
}

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <section className="min-w-0">
      <h4 className="mb-1.5 text-xs font-semibold uppercase tracking-wide text-slate-500">{title}</h4>
      {children}
    </section>
  )
}

export function ExplainTrace({ explanation: x }: { explanation: Explanation }) {
  const decision = DECISION[x.decision]
  return (
    <div className="space-y-4" data-testid="explain-trace" data-decision={x.decision}>
      <div role="status" className={`rounded-md border px-3 py-2.5 ${decision.box}`}>
        <p className="flex flex-wrap items-center gap-2">
          {/* The shared badge never wraps; in a column narrower than its label it must, or it spills out of the box. */}
          <Badge tone={decision.tone} className="max-w-full text-sm whitespace-normal!">
            {decision.label}
          </Badge>
          <span className="font-mono text-sm font-medium break-all">{x.through ? `${x.tool} → ${x.through.tool}` : x.tool}</span>
        </p>
        <p className="mt-1 text-sm [overflow-wrap:anywhere]">{x.summary}</p>
        <p className="mt-1 text-xs text-slate-600 [overflow-wrap:anywhere]" data-testid="identity-chain">
          <span className="font-medium text-slate-700">On whose behalf:</span> {x.identity.chain}
        </p>
        {x.fixes.length > 0 && (
          <ul className="mt-2 space-y-1 text-sm">
            {x.fixes.map((f, i) => (
              <li key={i}>
                <FixLink fix={f} />
              </li>
            ))}
          </ul>
        )}
      </div>

      <Section title="The gateway's pipeline, in order">
        <ol className="space-y-1.5">
          {x.steps.map((s) => {
            const o = OUTCOME[s.outcome]
            return (
              <li key={s.step} className="flex gap-2 text-sm" data-step={s.step} data-outcome={s.outcome}>
                <span aria-hidden className={`mt-0.5 inline-flex h-5 w-5 shrink-0 items-center justify-center rounded-full text-xs font-bold ${o.className}`}>
                  {o.mark}
                </span>
                <span className="min-w-0">
                  <span className="font-medium text-slate-900">{STEP_LABEL[s.step]}</span> <span className="text-xs text-slate-500">({o.label})</span>
                  <span className={`block text-xs [overflow-wrap:anywhere] ${s.outcome === 'refused' ? 'text-red-800' : 'text-slate-600'}`}>{s.detail}</span>
                </span>
              </li>
            )
          })}
        </ol>
      </Section>

      {x.candidates.length > 0 && (
        <Section title={`Sources of ${x.through?.tool ?? x.tool}`}>
          <ul className="divide-y divide-slate-100 rounded-md border border-slate-200">
            {x.candidates.map((c, i) => (
              <li key={i} className="px-3 py-2 text-sm">
                <p className="flex flex-wrap items-center gap-1.5">
                  <Badge tone={ROLE[c.role].tone}>{ROLE[c.role].label}</Badge>
                  <span className="font-mono text-xs" title={c.provenance}>
                    {shortProvenance(c.provenance)}
                  </span>
                  <span className="text-xs">
                    <ToolSourceLink source={c.source} plainClassName="text-slate-600" />
                  </span>
                  <LevelBadge level={c.level} />
                  <ApprovalBadge required={c.requiresApproval} source={c.approvalSource} />
                  {c.inheritedFromUnit && <span className="text-xs text-slate-500">from unit {c.inheritedFromUnit}</span>}
                </p>
                <p className="mt-0.5 text-xs text-slate-600 [overflow-wrap:anywhere]">{c.why}</p>
              </li>
            ))}
          </ul>
        </Section>
      )}

      <div className="grid gap-4 md:grid-cols-2">
        {x.safety && (
          <Section title="Safety and toggles">
            <dl className="space-y-1 text-xs text-slate-700">
              <div>
                <dt className="inline font-medium">allowedAgents: </dt>
                <dd className="inline font-mono">{x.safety.allowedAgents?.length ? x.safety.allowedAgents.join(', ') : 'anyone'}</dd>
              </div>
              <div>
                <dt className="inline font-medium">deniedNamespaces: </dt>
                <dd className="inline font-mono">{x.safety.deniedNamespaces?.length ? x.safety.deniedNamespaces.join(', ') : 'none'}</dd>
              </div>
              <div>
                <dt className="inline font-medium">Toggle: </dt>
                <dd className="inline">{x.safety.toggle ? `${x.safety.toggle.enabled ? 'on' : 'off'}, by ${x.safety.toggle.where}` : 'none (on)'}</dd>
              </div>
            </dl>
          </Section>
        )}

        {x.arguments.checked && (
          <Section title="Arguments">
            {x.arguments.violations.length === 0 ? (
              <p className="text-xs text-emerald-800">Match the tool&apos;s inputSchema.</p>
            ) : (
              <ul className="space-y-0.5 text-xs" data-testid="argument-violations">
                {x.arguments.violations.map((v, i) => (
                  <li key={i} className="break-words">
                    <code className="font-mono text-red-800">{v.path}</code> {v.message} <span className="text-slate-500">({v.rule})</span>
                  </li>
                ))}
              </ul>
            )}
          </Section>
        )}

        <Section title="Rate limits now">
          {x.rateLimits.windows.length === 0 ? (
            <p className="text-xs text-slate-600">No limit applies to this tool or agent.</p>
          ) : (
            <ul className="space-y-1.5">
              {x.rateLimits.windows.map((w, i) => {
                const used = Math.min(1, w.used / Math.max(1, w.limit))
                return (
                  <li key={i} className="text-xs text-slate-700">
                    <span className="flex justify-between gap-2">
                      <span>
                        {w.appliesTo}, per {w.window}
                      </span>
                      <span className="tabular-nums">
                        {count(w.remaining)} of {count(w.limit)} left · resets in {w.resetsInSeconds} s
                      </span>
                    </span>
                    <span className="mt-0.5 block h-1.5 overflow-hidden rounded bg-slate-100" aria-hidden>
                      <span className={`block h-full ${w.remaining === 0 ? 'bg-red-500' : 'bg-sky-500'}`} style={{ width: `${used * 100}%` }} />
                    </span>
                  </li>
                )
              })}
            </ul>
          )}
        </Section>

        <Section title="Idempotency key">
          {x.idempotency.key === null ? (
            <p className="text-xs text-slate-600">None: the call sends no key and the tool has no idempotencyKeyTemplate.</p>
          ) : (
            <div className="space-y-0.5 text-xs text-slate-700">
              <p className="break-all font-mono">{x.idempotency.key}</p>
              <p>
                {x.idempotency.source === 'caller'
                  ? "The caller's key (per agent and tool)."
                  : `Rendered from ${x.idempotency.template} (the tool's, across agents).`}{' '}
                {x.idempotency.problem ??
                  x.idempotency.withheld ??
                  (x.idempotency.heldBy
                    ? `Held by call ${x.idempotency.heldBy.callId} (${x.idempotency.heldBy.state}): a call now gets that answer instead of running.`
                    : 'Not held: a call now would claim it.')}
              </p>
            </div>
          )}
        </Section>

        {x.approval && (
          <Section title="Approval">
            <p className="text-xs text-slate-700">
              {x.approval.required ? 'Required' : 'Not required'}, by{' '}
              {x.approval.source === 'tool'
                ? "the tool's own rule"
                : x.approval.source === 'policy'
                  ? `the SideEffectPolicy of level ${x.approval.level.replace(/_/g, ' ')}`
                  : `Toolroom's default for level ${x.approval.level.replace(/_/g, ' ')}`}
              {x.approval.required &&
                `; a request expires after ${Math.round(x.approval.expirySeconds / 3600) >= 1 ? `${Math.round(x.approval.expirySeconds / 3600)} h` : `${Math.round(x.approval.expirySeconds / 60)} min`} (${x.approval.expirySource})`}
              .
            </p>
          </Section>
        )}
      </div>
    </div>
  )
}
