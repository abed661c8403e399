'use client'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Card } from '@/components/ui/card'
import { Field, Form, TextInput } from '@/components/ui/form'
import { PageSection } from '@/components/ui/page-section'
import { EmptyState, QueryView } from '@/components/ui/states'
import { Table, TBody, Td, Th, THead, Tr } from '@/components/ui/table'
import { type Scope, scopesAllowedFor } from '@/lib/auth/access-rules'
import { type ApiTokenView, createToken, listTokens, revokeToken } from '@/lib/client/access-api'
import { queryKeys } from '@/lib/client/query-keys'
import { useCaller } from './caller-context'
import { CredentialLifeCells, CredentialLifeHeaders } from './credential-life-cells'
import { ExpirySelect } from './expiry-select'
import { ErrorLine } from './error-line'
import { RevokeButton } from './revoke-button'
import { ShownOnce } from './shown-once'

const SCOPE_HELP: Record<Scope, string> = { read: 'read everything', write: 'change resources', approve: 'decide approvals', admin: 'everything' }
const EXPIRY = [
  { label: '7 days', days: 7 },
  { label: '30 days', days: 30 },
  { label: '90 days', days: 90 },
  { label: '1 year', days: 365 },
  { label: 'never', days: null },
]

/** API tokens for REST consumers (CI, scripts). Admins see and revoke everyone's. */
export function ApiTokensSection() {
  const caller = useCaller()
  const query = useQuery({ queryKey: queryKeys.tokens(), queryFn: listTokens })
  const isAdmin = caller?.role === 'admin'
  return (
    <PageSection title="API tokens">
      <NewToken />
      <Card
        title={isAdmin ? 'All API tokens' : 'Your API tokens'}
        description="Send one as Authorization: Bearer trk_… to /api/v1. A token never does more than its owner's role allows."
        bodyClassName="p-0"
      >
        <QueryView query={query} isEmpty={(d) => d.items.length === 0} empty={<EmptyState title="No API tokens yet" />}>
          {(data) => <TokensTable tokens={data.items} showOwner={isAdmin} />}
        </QueryView>
      </Card>
    </PageSection>
  )
}

function NewToken() {
  const caller = useCaller()
  const client = useQueryClient()
  const allowed = caller ? scopesAllowedFor(caller.role) : []
  const [created, setCreated] = useState<{ name: string; token: string } | null>(null)
  const create = useMutation({
    mutationFn: createToken,
    onSuccess: (answer) => {
      setCreated({ name: answer.name, token: answer.token })
      void client.invalidateQueries({ queryKey: queryKeys.tokens() })
    },
  })
  return (
    <Card title="Create an API token" description={`Scopes up to your role (${caller?.role ?? 'unknown'}): ${allowed.join(', ')}.`}>
      <Form
        className="flex flex-wrap items-end gap-4"
        onSubmit={(form) => {
          const data = new FormData(form)
          const expiry = String(data.get('expiry'))
          create.mutate(
            { name: String(data.get('name')), scopes: data.getAll('scopes').map(String) as Scope[], expiresInDays: expiry === 'never' ? null : Number(expiry) },
            { onSuccess: () => form.reset() },
          )
        }}
      >
        <Field label="Name">
          <TextInput name="name" required maxLength={100} placeholder="e.g. ci-deploy" className="w-56" />
        </Field>
        <fieldset className="flex flex-col gap-0.5">
          <legend className="text-xs font-medium text-slate-600">Scopes</legend>
          <div className="flex h-8 items-center gap-3">
            {allowed.map((scope) => (
              <label key={scope} className="inline-flex items-center gap-1 text-sm text-slate-800" title={SCOPE_HELP[scope]}>
                <input type="checkbox" name="scopes" value={scope} defaultChecked={scope === 'read'} /> {scope}
              </label>
            ))}
          </div>
        </fieldset>
        <ExpirySelect name="expiry" defaultValue="90" options={EXPIRY} />
        <Button type="submit" variant="primary" disabled={create.isPending}>
          Create token
        </Button>
      </Form>
      {create.error && <ErrorLine error={create.error} />}
      {created && (
        <div className="mt-3">
          <ShownOnce label={`Token “${created.name}”`} value={created.token} onDone={() => setCreated(null)} />
        </div>
      )}
    </Card>
  )
}

function TokensTable({ tokens, showOwner }: { tokens: ApiTokenView[]; showOwner: boolean }) {
  const client = useQueryClient()
  const revoke = useMutation({ mutationFn: revokeToken, onSuccess: () => void client.invalidateQueries({ queryKey: queryKeys.tokens() }) })
  return (
    <>
      {revoke.error && (
        <div className="px-4 pt-3">
          <ErrorLine error={revoke.error} />
        </div>
      )}
      <Table>
        <THead>
          <tr>
            <Th>Name</Th>
            <Th>Token</Th>
            <Th>Scopes</Th>
            {showOwner && <Th>Owner</Th>}
            <CredentialLifeHeaders />
            <Th className="text-right">Actions</Th>
          </tr>
        </THead>
        <TBody>
          {tokens.map((t) => (
            <Tr key={t.id} data-testid="token-row" data-name={t.name}>
              <Td className="font-medium text-slate-900">{t.name}</Td>
              <Td className="font-mono text-xs text-slate-600">{t.hint}…</Td>
              <Td>
                <span className="inline-flex gap-1">
                  {t.scopes.map((s) => (
                    <Badge key={s} tone={s === 'admin' ? 'violet' : s === 'read' ? 'gray' : 'blue'}>
                      {s}
                    </Badge>
                  ))}
                </span>
              </Td>
              {showOwner && <Td className="text-xs text-slate-600">{t.owner ?? (t.origin === 'env' ? 'TOOLROOM_ADMIN_TOKEN' : 'system')}</Td>}
              <CredentialLifeCells credential={t} state={t.status} />
              <Td className="text-right">
                {t.status === 'active' && (
                  <RevokeButton
                    confirmText={`Revoke “${t.name}”? Anything using it stops working at once.`}
                    pending={revoke.isPending}
                    onRevoke={() => revoke.mutate(t.id)}
                  />
                )}
              </Td>
            </Tr>
          ))}
        </TBody>
      </Table>
    </>
  )
}
