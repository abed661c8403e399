'use client'
// MCP authorization for admins: OAuth clients of /mcp, each bound to one agent (register, list,
// revoke), and the agents that accept dynamically registered clients. A workload's secret is shown once.
import { useState } from 'react'
import { AgentPicker } from '@/components/agents/agent-picker'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Card } from '@/components/ui/card'
import { CONTROL, Field, FieldActions, Form, TextArea, TextInput } from '@/components/ui/form'
import { PageSection } from '@/components/ui/page-section'
import { EmptyState, ErrorState, LoadingState } from '@/components/ui/states'
import { Table, TBody, Td, Th, THead, Tr } from '@/components/ui/table'
import { type OAuthClientView, useOAuthClients, useRegisterOAuthClient, useRevokeOAuthClient, useSetDynamicRegistration } from '@/lib/client/oauth-clients'
import { useCan } from './caller-context'
import { ErrorLine } from './error-line'
import { RevokeButton } from './revoke-button'
import { ShownOnce } from './shown-once'

export function OAuthClientsSection() {
  const isAdmin = useCan('admin')
  if (!isAdmin) return null
  return (
    <PageSection title="OAuth clients (MCP authorization)">
      <Card
        title="Register an OAuth client"
        description="For MCP clients that sign in the OAuth way instead of holding an agent credential. Every token the client gets acts as the agent you pick, for 10 minutes."
      >
        <RegisterForm />
      </Card>
      <ClientList />
    </PageSection>
  )
}

function RegisterForm() {
  const [agent, setAgent] = useState('')
  const [name, setName] = useState('')
  const [kind, setKind] = useState<'authorization_code' | 'client_credentials'>('authorization_code')
  const [redirects, setRedirects] = useState('')
  const [shown, setShown] = useState<{ label: string; value: string } | null>(null)
  const [registered, setRegistered] = useState<OAuthClientView | null>(null)
  const register = useRegisterOAuthClient()
  const redirectUris = redirects
    .split(/\s+/)
    .map((u) => u.trim())
    .filter(Boolean)
  const ready = agent.includes('/') && name.trim() && (kind === 'client_credentials' || redirectUris.length > 0)
  return (
    <div className="space-y-3">
      <Form
        className="flex flex-wrap items-start gap-4"
        onSubmit={() => {
          if (!ready) return
          register.mutate(
            { agent, name: name.trim(), kind, ...(kind === 'authorization_code' ? { redirectUris } : {}) },
            {
              onSuccess: (client) => {
                setRegistered(client)
                if (client.clientSecret) setShown({ label: `Secret of “${client.name}” (client id ${client.clientId})`, value: client.clientSecret })
                setName('')
                setRedirects('')
              },
            },
          )
        }}
      >
        <AgentPicker value={agent} onChange={setAgent} className="w-full sm:w-64" />
        <Field label="Name">
          <TextInput
            value={name}
            onChange={(e) => setName(e.target.value)}
            maxLength={100}
            required
            placeholder="e.g. Claude on Ana's laptop"
            className="w-full sm:w-56"
          />
        </Field>
        <Field label="Used by">
          <select value={kind} onChange={(e) => setKind(e.target.value as typeof kind)} className={`${CONTROL} w-full sm:w-56`}>
            <option value="authorization_code">a person (code + PKCE)</option>
            <option value="client_credentials">a workload (client credentials)</option>
          </select>
        </Field>
        {kind === 'authorization_code' && (
          <Field label="Redirect URIs (one per line)" className="w-full min-w-0 sm:w-auto sm:flex-1 sm:basis-64">
            <TextArea code value={redirects} onChange={(e) => setRedirects(e.target.value)} rows={2} placeholder="http://127.0.0.1:33418/callback" />
          </Field>
        )}
        <FieldActions>
          <Button type="submit" variant="primary" disabled={register.isPending || !ready}>
            {register.isPending ? 'Registering…' : 'Register client'}
          </Button>
        </FieldActions>
      </Form>
      {register.error && <ErrorLine error={register.error} />}
      {registered && !shown && (
        <p role="status" className="rounded-md border border-emerald-200 bg-emerald-50 px-3 py-2 text-xs text-emerald-900">
          Registered “{registered.name}”: client id <code className="break-all font-mono">{registered.clientId}</code>. Give the MCP client this id and the
          gateway&apos;s address; it finds the rest itself.
        </p>
      )}
      {shown && (
        <ShownOnce
          label={shown.label}
          value={shown.value}
          onDone={() => {
            setShown(null)
            setRegistered(null)
          }}
        />
      )}
    </div>
  )
}

function ClientList() {
  const list = useOAuthClients()
  const revoke = useRevokeOAuthClient()
  const dynamic = useSetDynamicRegistration()
  const [allowAgent, setAllowAgent] = useState('')
  return (
    <>
      <Card title="All OAuth clients" description="Revoking a client ends every token it holds at once." bodyClassName="">
        {list.isPending ? (
          <LoadingState label="Loading OAuth clients…" />
        ) : list.isError ? (
          <ErrorState error={list.error} onRetry={() => list.refetch()} />
        ) : list.data.items.length === 0 ? (
          <EmptyState title="No OAuth clients yet">
            Agents reach the gateway with their credentials; register a client for MCP clients that only do OAuth.
          </EmptyState>
        ) : (
          <Table>
            <THead>
              <tr>
                <Th>Client</Th>
                <Th>Agent</Th>
                <Th>Used by</Th>
                <Th>Registered</Th>
                <Th>Tokens</Th>
                <Th />
              </tr>
            </THead>
            <TBody>
              {list.data.items.map((c) => (
                <Tr key={c.clientId} data-testid={`oauth-client-${c.clientId}`}>
                  <Td className="max-w-xs">
                    <div className="break-words font-medium text-slate-900">{c.name}</div>
                    <code className="break-all font-mono text-xs text-slate-500">{c.clientId}</code>
                  </Td>
                  <Td className="break-all font-mono text-xs">
                    {c.agent ? `${c.agent.namespace}/${c.agent.name}` : <span className="text-slate-400">not bound yet</span>}
                  </Td>
                  <Td className="text-xs">{c.kind === 'client_credentials' ? 'a workload' : 'a person'}</Td>
                  <Td className="text-xs">{c.registration === 'admin' ? `by ${c.registeredBy}` : 'itself (dynamic)'}</Td>
                  <Td className="text-xs">{c.disabled ? <Badge tone="gray">revoked</Badge> : `${c.activeTokens} active`}</Td>
                  <Td className="text-right">
                    {!c.disabled && (
                      <RevokeButton
                        confirmText={`Revoke “${c.name}”? Every token it holds stops working at once.`}
                        pending={revoke.isPending}
                        onRevoke={() => revoke.mutate(c.clientId)}
                      />
                    )}
                  </Td>
                </Tr>
              ))}
            </TBody>
          </Table>
        )}
        {revoke.error && <ErrorLine error={revoke.error} />}
      </Card>
      <Card
        title="Dynamic client registration"
        description="MCP clients may register themselves only while some agent here accepts them; the person who consents then binds the client to one of these agents."
      >
        <div className="space-y-3">
          {list.data && list.data.dynamicRegistration.length > 0 ? (
            <ul className="flex flex-wrap gap-2">
              {list.data.dynamicRegistration.map((a) => (
                <li key={a.id} className="flex items-center gap-2 rounded-md border border-slate-200 px-2 py-1 text-xs">
                  <code className="font-mono">
                    {a.namespace}/{a.name}
                  </code>
                  <span className="text-slate-500">by {a.allowedBy}</span>
                  <Button variant="ghost" onClick={() => dynamic.mutate({ agent: a.id, allowed: false })} disabled={dynamic.isPending}>
                    Stop
                  </Button>
                </li>
              ))}
            </ul>
          ) : (
            <p className="text-xs text-slate-500">Closed: no agent accepts dynamically registered clients.</p>
          )}
          <Form
            className="flex flex-wrap items-end gap-4"
            onSubmit={() => {
              if (allowAgent.includes('/')) dynamic.mutate({ agent: allowAgent, allowed: true }, { onSuccess: () => setAllowAgent('') })
            }}
          >
            <AgentPicker label="Let this agent accept them" value={allowAgent} onChange={setAllowAgent} className="w-full sm:w-64" />
            <Button type="submit" disabled={dynamic.isPending || !allowAgent.includes('/')}>
              Allow
            </Button>
          </Form>
          {dynamic.error && <ErrorLine error={dynamic.error} />}
        </div>
      </Card>
    </>
  )
}
