'use client'
// A LanguageTool whose MCP server follows MCP authorization is connected by an operator signing in
// at its authorization server (docs/design/gateway.md, "Connected upstreams"): the state of that
// connection, and Connect / Reconnect / Disconnect for those who may change it.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useCan } from '@/components/access/caller-context'
import { Badge } from '@/components/ui/badge'
import { CONNECTION_STATE, ConnectionActions, When } from '@/components/connections/connection-parts'
import { Card } from '@/components/ui/card'
import { Code } from '@/components/ui/code'
import { DefinitionList } from '@/components/ui/definition-list'
import type { UPSTREAM_CONNECTION_CONTRACTS } from '@/lib/api/upstream-connection-routes'
import { type AnswerOf, apiFetch, qs } from '@/lib/client/api'

type Connection = AnswerOf<typeof UPSTREAM_CONNECTION_CONTRACTS.get>
type Started = AnswerOf<typeof UPSTREAM_CONNECTION_CONTRACTS.start>

export function ConnectionCard({ name, namespace }: { name: string; namespace: string }) {
  const canWrite = useCan('write')
  const queryClient = useQueryClient()
  const path = `/api/v1/languagetools/${encodeURIComponent(name)}/connection${qs({ namespace })}`
  const connection = useQuery({ queryKey: ['languagetool-connection', namespace, name], queryFn: () => apiFetch<Connection>(path) })
  // The browser goes to the authorization server; it comes back through the callback to this page.
  const connect = useMutation({
    mutationFn: () => apiFetch<Started>(path, { method: 'POST' }),
    onSuccess: (started) => window.location.assign(started.authorizationUrl),
  })
  const disconnect = useMutation({
    mutationFn: () => fetch(path, { method: 'DELETE' }).then((r) => (r.ok ? undefined : Promise.reject(new Error(`HTTP ${r.status}`)))),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['languagetool-connection', namespace, name] }),
  })
  const c = connection.data
  const state = c ? CONNECTION_STATE[c.state] : null
  const error = (connect.error ?? disconnect.error ?? connection.error) as Error | null
  return (
    <Card
      id="connection"
      title="Connection"
      description="This server follows MCP authorization: an operator signs in at its authorization server once, and Toolroom keeps the refresh token, sealed, for discovery and every call."
      actions={canWrite && c ? <ConnectionActions state={c.state} connect={connect} disconnect={disconnect} /> : null}
    >
      {c && state ? (
        <>
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
              [
                'Connected',
                c.connectedAt ? (
                  <span key="c">
                    <When at={c.connectedAt} /> {c.connectedBy ? <span className="text-xs text-slate-500">by {c.connectedBy}</span> : null}
                  </span>
                ) : (
                  'never'
                ),
              ],
              ['Last refresh', <When key="r" at={c.refreshedAt} />],
            ]}
          />
          {c.message && (
            <p
              role={c.state === 'connected' ? 'status' : 'alert'}
              className={`mt-3 break-words text-sm ${c.state === 'connected' ? 'text-amber-800' : 'text-red-800'}`}
            >
              {c.message}
            </p>
          )}
        </>
      ) : (
        <p className="text-sm text-slate-500">{connection.isPending ? 'Loading…' : null}</p>
      )}
      {error && <p className="mt-3 break-words text-sm text-red-800">{error.message}</p>}
    </Card>
  )
}
