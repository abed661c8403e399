'use client'
// The agent's gateway credentials: issue one (its token is shown once, here), see when each was last
// used, revoke. Tokens are never listed: the server keeps only their hash.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useId, useState } from 'react'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Card } from '@/components/ui/card'
import { QueryView } from '@/components/ui/states'
import { Table, TBody, Td, Th, THead, Tr } from '@/components/ui/table'
import { type AgentCredential, createAgentCredential, credentialsKey, listAgentCredentials, revokeAgentCredential } from '@/lib/client/agent-credentials'
import type { ApiError } from '@/lib/client/api'
import { dateTime, timeAgo } from '@/lib/client/format'

const STATE_TONE = { active: 'green', expired: 'amber', revoked: 'gray' } as const

export function CredentialsCard({ id, namespace }: { id: string; namespace?: string }) {
  const client = useQueryClient()
  const nameId = useId()
  const expiryId = useId()
  const [name, setName] = useState('')
  const [expiresInDays, setExpiresInDays] = useState('')
  const [issued, setIssued] = useState<(AgentCredential & { token: string }) | null>(null)
  const query = useQuery({ queryKey: credentialsKey(id, namespace), queryFn: () => listAgentCredentials(id, namespace) })
  const refresh = () => client.invalidateQueries({ queryKey: credentialsKey(id, namespace) })
  const create = useMutation({
    mutationFn: () => createAgentCredential(id, namespace, { name: name.trim(), ...(expiresInDays ? { expiresInDays: Number(expiresInDays) } : {}) }),
    onSuccess: (credential) => {
      setIssued(credential)
      setName('')
      setExpiresInDays('')
      void refresh()
    },
  })
  const revoke = useMutation({ mutationFn: (credentialId: string) => revokeAgentCredential(id, namespace, credentialId), onSettled: () => void refresh() })
  const error = (create.error ?? revoke.error) as ApiError | null

  return (
    <Card title="Gateway credentials" description="Bearer tokens this agent presents to the gateway at /mcp. A token is shown once, when it is issued." bodyClassName="space-y-3 p-4">
      {issued && (
        <div role="status" className="rounded-md border border-emerald-200 bg-emerald-50 p-3 text-sm text-emerald-900">
          <p className="font-semibold">Credential “{issued.name}” issued. Copy the token now: it is not shown again.</p>
          <code className="mt-2 block break-all rounded bg-white px-2 py-1 font-mono text-xs text-slate-900" data-testid="issued-token">
            {issued.token}
          </code>
          <div className="mt-2 flex gap-2">
            <Button onClick={() => void navigator.clipboard?.writeText(issued.token)}>Copy</Button>
            <Button variant="ghost" onClick={() => setIssued(null)}>
              Done
            </Button>
          </div>
        </div>
      )}
      <form
        className="flex flex-wrap items-end gap-2"
        onSubmit={(e) => {
          e.preventDefault()
          if (name.trim()) create.mutate()
        }}
      >
        <div>
          <label htmlFor={nameId} className="block text-xs font-medium text-slate-700">
            Name
          </label>
          <input id={nameId} value={name} onChange={(e) => setName(e.target.value)} maxLength={100} required placeholder="e.g. production" className="h-8 w-48 rounded-md border border-slate-300 px-2 text-sm" />
        </div>
        <div>
          <label htmlFor={expiryId} className="block text-xs font-medium text-slate-700">
            Expires after (days, optional)
          </label>
          <input id={expiryId} type="number" min={1} max={3650} value={expiresInDays} onChange={(e) => setExpiresInDays(e.target.value)} className="h-8 w-32 rounded-md border border-slate-300 px-2 text-sm" />
        </div>
        <Button type="submit" variant="primary" disabled={create.isPending || !name.trim()}>
          Issue credential
        </Button>
      </form>
      {error && (
        <div role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-xs text-red-900">
          {error.message}
        </div>
      )}
      <QueryView query={query}>
        {({ items }) =>
          items.length === 0 ? (
            <p className="text-sm text-slate-500">No credentials yet: this agent cannot call the gateway.</p>
          ) : (
            <Table>
              <THead>
                <Tr>
                  <Th>Name</Th>
                  <Th>Token</Th>
                  <Th>State</Th>
                  <Th>Created</Th>
                  <Th>Last used</Th>
                  <Th>Expires</Th>
                  <Th />
                </Tr>
              </THead>
              <TBody>
                {items.map((c) => (
                  <Tr key={c.id}>
                    <Td className="font-medium">{c.name}</Td>
                    <Td className="font-mono text-xs">{c.hint}…</Td>
                    <Td>
                      <Badge tone={STATE_TONE[c.state]} title={c.revokedAt ? `revoked ${dateTime(c.revokedAt)}` : undefined}>
                        {c.state}
                      </Badge>
                    </Td>
                    <Td className="text-xs" title={dateTime(c.createdAt)}>
                      {timeAgo(c.createdAt)}
                      {c.createdBy ? ` by ${c.createdBy}` : ''}
                    </Td>
                    <Td className="text-xs">{c.lastUsedAt ? timeAgo(c.lastUsedAt) : 'never'}</Td>
                    <Td className="text-xs">{c.expiresAt ? dateTime(c.expiresAt) : 'never'}</Td>
                    <Td className="text-right">
                      {c.state === 'active' && (
                        <Button
                          className="text-red-800 hover:bg-red-50"
                          disabled={revoke.isPending}
                          onClick={() => {
                            if (window.confirm(`Revoke “${c.name}”? The agent's calls with it are refused within seconds.`)) revoke.mutate(c.id)
                          }}
                        >
                          Revoke
                        </Button>
                      )}
                    </Td>
                  </Tr>
                ))}
              </TBody>
            </Table>
          )
        }
      </QueryView>
    </Card>
  )
}
