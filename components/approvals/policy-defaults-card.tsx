'use client'
// Per-level defaults: whether a call needs approval, how long it may wait, whether approving asks
// again (high risk), and which arguments the queue shows. Saving writes the level's SideEffectPolicy
// through Apply, so the change is validated, audited and versioned like any other resource; a tool's
// own `sideEffects` still overrides it.
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { useMayChangeKind } from '@/components/access/caller-context'
import { LEVELS } from '@/components/tools/badges'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Card } from '@/components/ui/card'
import { TextInput } from '@/components/ui/form'
import { QueryView } from '@/components/ui/states'
import { Table, TBody, Td, Th, THead, Tr } from '@/components/ui/table'
import { applyManifest, type Resource } from '@/lib/client/api'
import { humanize } from '@/lib/client/format'
import { useAllResources } from '@/lib/client/hooks'
import { queryKeys } from '@/lib/client/query-keys'
import { HIGH_RISK_LEVELS, LEVELS_REQUIRING_APPROVAL } from '@/lib/approvals/approval-defaults'

interface PolicySpec {
  level: string
  requiresApproval: boolean
  approvalExpirySeconds?: number
  highRisk?: boolean
  approvalSummary?: string[]
  [key: string]: unknown
}

/** "args.amount, args.invoice" as typed, to the list the policy keeps (empty: the first arguments). */
const summaryOf = (text: string) => text.split(/[\s,]+/).filter(Boolean)

const DEFAULT_EXPIRY_MINUTES = 24 * 60

export function PolicyDefaultsCard() {
  const canEdit = useMayChangeKind('SideEffectPolicy')
  const policies = useAllResources<Resource<PolicySpec>>('sideeffectpolicies')
  return (
    <Card
      title="Approval by side-effect level"
      description={`Toolroom ships with financial, privileged and communication calls waiting for approval, and asks again before approving a financial, privileged or code-execution one (high risk). A level's policy changes that for every tool of the level; a tool's own sideEffects.requiresApproval and approvalSummary win over both. The queue shows the arguments listed here (paths like args.amount), else the first four.${canEdit ? '' : ' Only admins change these policies.'}`}
      bodyClassName=""
    >
      <QueryView query={policies}>
        {(rows) => (
          <Table>
            <THead>
              <Th>Level</Th>
              <Th>Needs approval</Th>
              <Th>Expires after (minutes)</Th>
              <Th>High risk</Th>
              <Th>Queue shows</Th>
              <Th>Set by</Th>
              <Th />
            </THead>
            <TBody>
              {LEVELS.map((level) => (
                <PolicyRow key={level} level={level} policy={rows.find((p) => p.spec.level === level)} canEdit={canEdit} />
              ))}
            </TBody>
          </Table>
        )}
      </QueryView>
    </Card>
  )
}

function PolicyRow({ level, policy, canEdit }: { level: string; policy?: Resource<PolicySpec>; canEdit: boolean }) {
  const client = useQueryClient()
  const requires = policy ? policy.spec.requiresApproval : LEVELS_REQUIRING_APPROVAL.has(level as never)
  const minutes = policy?.spec.approvalExpirySeconds ? Math.round(policy.spec.approvalExpirySeconds / 60) : DEFAULT_EXPIRY_MINUTES
  const highRisk = policy?.spec.highRisk ?? HIGH_RISK_LEVELS.has(level as never)
  const summary = (policy?.spec.approvalSummary ?? []).join(', ')
  const [draft, setDraft] = useState({ requires, minutes: String(minutes), highRisk, summary })
  const dirty =
    draft.requires !== requires || Number(draft.minutes) !== minutes || draft.highRisk !== highRisk || summaryOf(draft.summary).join(', ') !== summary
  const save = useMutation({
    mutationFn: () => {
      const fields = summaryOf(draft.summary)
      // An emptied list goes back to the default, so the old list must not ride along.
      const rest: Partial<PolicySpec> = { ...policy?.spec }
      delete rest.approvalSummary
      const spec: PolicySpec = {
        ...rest,
        level,
        requiresApproval: draft.requires,
        approvalExpirySeconds: Math.round(Number(draft.minutes) * 60),
        highRisk: draft.highRisk,
        ...(fields.length ? { approvalSummary: fields } : {}),
      }
      const doc = {
        apiVersion: 'toolroom.dev/v1alpha1',
        kind: 'SideEffectPolicy',
        metadata: { name: level, namespace: policy?.metadata.namespace ?? 'default' },
        spec,
      }
      return applyManifest(JSON.stringify(doc), false)
    },
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: queryKeys.lists('sideeffectpolicies') })
      // Effective tool sets carry the approval requirement.
      void client.invalidateQueries({ queryKey: queryKeys.details('agents') })
      void client.invalidateQueries({ queryKey: queryKeys.details('units') })
    },
  })
  return (
    <Tr data-testid="policy-row" data-level={level}>
      <Td className="font-medium">{humanize(level)}</Td>
      <Td>
        <input
          type="checkbox"
          aria-label={`${humanize(level)} needs approval`}
          checked={draft.requires}
          disabled={!canEdit}
          onChange={(e) => setDraft((d) => ({ ...d, requires: e.target.checked }))}
        />
      </Td>
      <Td>
        <TextInput
          type="number"
          min={1}
          max={43200}
          aria-label={`${humanize(level)} expiry in minutes`}
          value={draft.minutes}
          disabled={!canEdit}
          onChange={(e) => setDraft((d) => ({ ...d, minutes: e.target.value }))}
          className="w-24"
        />
      </Td>
      <Td>
        <input
          type="checkbox"
          aria-label={`Approving ${humanize(level)} calls asks for a confirmation`}
          checked={draft.highRisk}
          disabled={!canEdit}
          onChange={(e) => setDraft((d) => ({ ...d, highRisk: e.target.checked }))}
        />
      </Td>
      <Td>
        <TextInput
          monospace
          aria-label={`Arguments the queue shows for ${humanize(level)} calls`}
          placeholder="first four"
          value={draft.summary}
          disabled={!canEdit}
          maxLength={2000}
          onChange={(e) => setDraft((d) => ({ ...d, summary: e.target.value }))}
          className="w-56"
        />
      </Td>
      <Td>
        {policy ? (
          <Badge tone="blue">
            policy {policy.metadata.namespace}/{policy.metadata.name}
          </Badge>
        ) : (
          <Badge>Toolroom default</Badge>
        )}
      </Td>
      <Td className="text-right">
        {canEdit && (
          <span className="inline-flex items-center gap-2">
            {save.isError && (
              <span role="alert" className="text-xs text-red-700">
                {(save.error as Error).message}
              </span>
            )}
            {save.isSuccess && !dirty && <span className="text-xs text-emerald-700">saved</span>}
            <Button onClick={() => save.mutate()} disabled={!dirty || save.isPending || !(Number(draft.minutes) >= 1)}>
              {save.isPending ? 'Saving…' : 'Save'}
            </Button>
          </span>
        )}
      </Td>
    </Tr>
  )
}
