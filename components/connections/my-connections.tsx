'use client'
// A person's own connected accounts (docs/design/access.md#connected-accounts): every upstream whose
// calls use each person's own account, where theirs stands, and Connect / Reconnect / Disconnect. The
// gateway's "connect your account" answers link here, at one LanguageTool (`?languageTool=ns/name`).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Badge } from '@/components/ui/badge'
import { CONNECTION_STATE, ConnectionActions, When } from '@/components/connections/connection-parts'
import { Card } from '@/components/ui/card'
import { Code } from '@/components/ui/code'
import { DefinitionList } from '@/components/ui/definition-list'
import { EmptyState, ErrorState, LoadingState } from '@/components/ui/states'
import type { PERSON_CONNECTION_CONTRACTS } from '@/lib/api/person-connection-routes'
import { type AnswerOf, apiFetch, qs } from '@/lib/client/api'

type Connection = AnswerOf<typeof PERSON_CONNECTION_CONTRACTS.list>['items'][number]
type Started = AnswerOf<typeof PERSON_CONNECTION_CONTRACTS.start>

const QUERY_KEY = ['my-connections']

export function MyConnections({ focus, justConnected }: { focus: string | null; justConnected: boolean }) {
  const connections = useQuery({ queryKey: QUERY_KEY, queryFn: () => apiFetch<{ items: Connection[] }>('/api/v1/connections') })
  if (connections.isPending) return <LoadingState />
  if (connections.error) return <ErrorState error={connections.error} onRetry={() => void connections.refetch()} />
  const items = connections.data.items
  if (items.length === 0)
    return (
      <Card>
        <EmptyState title="No upstream asks for your own account">
          When an operator sets a LanguageTool to connect each person (<Code>auth.oauth2.connect: perPerson</Code>), it is listed here.
        </EmptyState>
      </Card>
    )
  return (
    <div className="space-y-4">
      {items.map((c) => {
        const id = `${c.namespace}/${c.name}`
        return <ConnectionItem key={id} connection={c} focused={focus === id} justConnected={justConnected && focus === id} />
      })}
    </div>
  )
}

function ConnectionItem({ connection: c, focused, justConnected }: { connection: Connection; focused: boolean; justConnected: boolean }) {
  const queryClient = useQueryClient()
  const path = `/api/v1/connections/languagetools/${encodeURIComponent(c.name)}${qs({ namespace: c.namespace })}`
  // The browser goes to the authorization server; it comes back through the callback to this page.
  const connect = useMutation({
    mutationFn: () => apiFetch<Started>(path, { method: 'POST' }),
    onSuccess: (started) => window.location.assign(started.authorizationUrl),
  })
  const disconnect = useMutation({
    mutationFn: () => fetch(path, { method: 'DELETE' }).then((r) => (r.ok ? undefined : Promise.reject(new Error(`HTTP ${r.status}`)))),
    onSettled: () => queryClient.invalidateQueries({ queryKey: QUERY_KEY }),
  })
  const state = CONNECTION_STATE[c.state]
  const error = (connect.error ?? disconnect.error) as Error | null
  return (
    <section
      aria-label={`${c.namespace}/${c.name}`}
      className={focused ? 'rounded-lg ring-2 ring-amber-400 ring-offset-2' : undefined}
      data-testid={`connection-${c.namespace}-${c.name}`}
    >
      <Card
        title={
          <span className="break-all">
            {c.name} <span className="text-xs font-normal text-slate-500">in {c.namespace}</span>
          </span>
        }
        description={c.description ?? 'Calls agents make for you use your own account on this server.'}
        actions={<ConnectionActions state={c.state} connect={connect} disconnect={disconnect} />}
      >
        <DefinitionList
          items={[
            [
              'State',
              <Badge key="s" tone={state.tone}>
                {state.label}
              </Badge>,
            ],
            ['Authorization server', c.authorizationServer ? <Code>{c.authorizationServer}</Code> : '—'],
            ['Scopes granted', c.scopes.length ? <Code>{c.scopes.join(' ')}</Code> : '—'],
            ['Connected', <When key="c" at={c.connectedAt} />],
          ]}
        />
        {justConnected && c.state === 'connected' && (
          <p role="status" className="mt-3 text-sm text-green-800">
            Connected: calls made for you now use your account.
          </p>
        )}
        {c.message && (
          <p
            role={c.state === 'connected' ? 'status' : 'alert'}
            className={`mt-3 break-words text-sm ${c.state === 'connected' ? 'text-amber-800' : 'text-red-800'}`}
          >
            {c.message}
          </p>
        )}
        {error && <p className="mt-3 break-words text-sm text-red-800">{error.message}</p>}
      </Card>
    </section>
  )
}
