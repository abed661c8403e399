'use client'
// An IdentityProvider's observed status (docs/design/access.md#identity-provider-status): whether its
// keys can be had, when they were fetched, its last error, and the subject tokens refused by reason.
import type { z } from 'zod'
import { PhaseBadge } from '@/components/resources/status-badges'
import { ToolConditionsList } from '@/components/tools/tool-conditions'
import { Card } from '@/components/ui/card'
import { DefinitionList } from '@/components/ui/definition-list'
import { Table, TBody, Td, Th, THead, Tr } from '@/components/ui/table'
import { LocalDateTime, TimeAgo } from '@/components/ui/time'
import { REFUSAL_REASONS, type RefusalReason } from '@/lib/identity/identity-provider-conditions'
import type { identityProviderStatusSchema } from '@/lib/api/schemas'

export type IdentityProviderStatus = z.output<typeof identityProviderStatusSchema>

const REFUSAL_LABELS: Record<RefusalReason, string> = {
  audience: 'Wrong audience',
  expired: 'Expired',
  unknown_key: 'Signed with a key its JWKS lacks',
  signature: 'Signature does not verify',
  algorithm: 'Algorithm not allowed',
  claims: 'Claims unacceptable',
  replay: 'Replayed (exchanged before)',
}

/** The Keys cell of the list: phase, and what it rests on in a few words. */
export function KeysSummary({ status }: { status: IdentityProviderStatus | undefined }) {
  const condition = status?.conditions[0]
  return (
    <div className="min-w-0 space-y-0.5">
      <PhaseBadge phase={status?.phase ?? 'Pending'} why={condition?.message} />
      <p className="text-xs text-slate-600">
        {status?.phase === 'Failed' && status.keys.lastError ? (
          <span className="line-clamp-2 break-words text-red-700" title={status.keys.lastError}>
            {status.keys.lastError}
          </span>
        ) : status?.keys.fetchedAt ? (
          <>
            {status.keys.count} key{status.keys.count === 1 ? '' : 's'} · <TimeAgo iso={status.keys.fetchedAt} />
          </>
        ) : (
          'not fetched yet'
        )}
      </p>
    </div>
  )
}

/** Refusals of the list: the total, by reason on hover. */
export function RefusalsSummary({ status }: { status: IdentityProviderStatus | undefined }) {
  const counted = REFUSAL_REASONS.filter((r) => status?.refusals[r]?.count)
  if (counted.length === 0) return <span className="text-slate-400">0</span>
  const total = counted.reduce((sum, r) => sum + status!.refusals[r]!.count, 0)
  return <span title={counted.map((r) => `${REFUSAL_LABELS[r]}: ${status!.refusals[r]!.count}`).join('\n')}>{total}</span>
}

export function IdentityProviderStatusCards({ status }: { status: IdentityProviderStatus | undefined }) {
  const counted = REFUSAL_REASONS.filter((r) => status?.refusals[r]?.count)
  return (
    <>
      <Card title="Status" description="Observed when a subject token of this provider is checked: whether its keys can be had.">
        <DefinitionList
          columns={3}
          items={[
            ['Phase', <PhaseBadge key="p" phase={status?.phase ?? 'Pending'} />],
            [
              'Keys last fetched',
              status?.keys.fetchedAt ? <LocalDateTime key="f" iso={status.keys.fetchedAt} /> : <span className="text-slate-500">never</span>,
            ],
            ['Keys held', status?.keys.count ?? <span className="text-slate-500">unknown</span>],
          ]}
        />
        {/* The condition carries the provider's last error while its keys cannot be had (it is cleared once they can). */}
        <div className="mt-3 border-t border-slate-100 pt-1" data-testid="identity-provider-conditions">
          {status?.conditions.length ? (
            <ToolConditionsList conditions={status.conditions} />
          ) : (
            <p className="py-2 text-sm text-slate-600">Not observed yet: its keys are fetched when a subject token of it is first exchanged.</p>
          )}
        </div>
      </Card>
      <Card title="Refused subject tokens" description="Tokens of this provider's people that Toolroom refused, by reason, since the provider was created.">
        {counted.length === 0 ? (
          <p className="text-sm text-slate-600">None refused.</p>
        ) : (
          <Table>
            <THead>
              <tr>
                <Th>Reason</Th>
                <Th className="text-right">Refused</Th>
                <Th>Last</Th>
              </tr>
            </THead>
            <TBody>
              {counted.map((reason) => (
                <Tr key={reason} data-testid="refusal-row" data-reason={reason}>
                  <Td className="text-slate-800">{REFUSAL_LABELS[reason]}</Td>
                  <Td className="text-right tabular-nums text-slate-800">{status!.refusals[reason]!.count}</Td>
                  <Td className="whitespace-nowrap text-xs text-slate-600">
                    <TimeAgo iso={status!.refusals[reason]!.lastAt} />
                  </Td>
                </Tr>
              ))}
            </TBody>
          </Table>
        )}
      </Card>
    </>
  )
}
