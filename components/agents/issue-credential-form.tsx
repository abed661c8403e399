'use client'
// Issuing a gateway credential: for the agent of the page, or for one picked by name (the Access
// tokens page). The token is in the answer only, so it is shown once, here.
import { useState } from 'react'
import { ExpirySelect } from '@/components/access/expiry-select'
import { ErrorLine } from '@/components/access/error-line'
import { ShownOnce } from '@/components/access/shown-once'
import { Button } from '@/components/ui/button'
import { Field, FieldActions, Form, TextInput } from '@/components/ui/form'
import type { AgentRef } from '@/lib/client/agent-credentials-api'
import { useIssueAgentCredential } from '@/lib/client/agent-credentials-hooks'
import { AgentPicker } from './agent-picker'

// 90 days by default, like API tokens (and the API's default): a credential nobody renews or revokes
// stops by itself. "never" stays on offer for agents whose owners rotate credentials themselves.
const EXPIRY = [
  { label: '30 days', days: 30 },
  { label: '90 days', days: 90 },
  { label: '1 year', days: 365 },
  { label: 'never', days: null },
]
const DEFAULT_EXPIRY = '90'

/** `agent`: the page's agent; without it, the form has an agent picker. */
export function IssueCredentialForm({ agent }: { agent?: AgentRef }) {
  const [picked, setPicked] = useState('')
  const [name, setName] = useState('')
  const [expiry, setExpiry] = useState(DEFAULT_EXPIRY)
  const [issued, setIssued] = useState<{ label: string; token: string } | null>(null)
  const issue = useIssueAgentCredential()
  const target = agent ?? refOf(picked)

  return (
    <div className="space-y-3">
      <Form
        className="flex flex-wrap items-start gap-4"
        onSubmit={() => {
          if (!target || !name.trim()) return
          const input = { name: name.trim(), expiresInDays: expiry === 'never' ? null : Number(expiry) }
          issue.mutate(
            { agent: target, input },
            {
              onSuccess: (credential) => {
                setIssued({ label: `Credential “${credential.name}”${agent ? '' : ` for agent ${picked}`}`, token: credential.token })
                setName('')
                setExpiry(DEFAULT_EXPIRY)
                setPicked('')
              },
            },
          )
        }}
      >
        {!agent && <AgentPicker value={picked} onChange={setPicked} />}
        <Field label="Name">
          <TextInput value={name} onChange={(e) => setName(e.target.value)} maxLength={100} required placeholder="e.g. production" className="w-48" />
        </Field>
        <ExpirySelect value={expiry} onChange={(e) => setExpiry(e.target.value)} options={EXPIRY} />
        <FieldActions>
          <Button type="submit" variant="primary" disabled={issue.isPending || !target || !name.trim()}>
            {issue.isPending ? 'Issuing…' : 'Issue credential'}
          </Button>
        </FieldActions>
      </Form>
      {issue.error && <ErrorLine error={issue.error} />}
      {issued && <ShownOnce label={issued.label} value={issued.token} onDone={() => setIssued(null)} />}
    </div>
  )
}

/** `namespace/name` as the agent routes take it: the name as the id, the namespace as a query parameter. */
function refOf(picked: string): AgentRef | null {
  const slash = picked.indexOf('/')
  return slash < 0 ? null : { id: picked.slice(slash + 1), namespace: picked.slice(0, slash) }
}
