'use client'
// Where approval events are posted. The signing secret is shown once, right after creation.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { useCan } from '@/components/access/caller-context'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Card } from '@/components/ui/card'
import { CodeBlock } from '@/components/ui/code-block'
import { Field, Form, TextInput } from '@/components/ui/form'
import { EmptyState, QueryView } from '@/components/ui/states'
import { Table, TBody, Td, Th, THead, Tr } from '@/components/ui/table'
import { createWebhook, deleteWebhook, listWebhookDeliveries, listWebhooks, updateWebhook, type Webhook } from '@/lib/client/approvals-api'
import { timeAgo } from '@/lib/client/format'
import { queryKeys } from '@/lib/client/query-keys'
import { WEBHOOK_EVENTS, type WebhookEvent } from '@/lib/webhooks/webhook-events'

const EVENTS = WEBHOOK_EVENTS

export function WebhooksCard() {
  const isAdmin = useCan('admin')
  const webhooks = useQuery({ queryKey: queryKeys.webhooks(), queryFn: listWebhooks, enabled: isAdmin })
  if (!isAdmin)
    return (
      <Card title="Webhooks">
        <p className="text-sm text-slate-600">Admins configure where approval events are posted.</p>
      </Card>
    )
  return (
    <Card
      title="Webhooks"
      description="Each new request and each decision is posted as JSON, signed in the Standard Webhooks format (webhook-id, webhook-timestamp, webhook-signature: v1,<base64 HMAC-SHA256 of “id.timestamp.body”> under the endpoint's whsec_ secret), so any Standard Webhooks library verifies it. Failed deliveries are retried with backoff."
      bodyClassName=""
    >
      <NewWebhookForm />
      <QueryView query={webhooks} isEmpty={(d) => d.items.length === 0} empty={<EmptyState title="No webhooks yet" />}>
        {(d) => (
          <Table>
            <THead>
              <Th>Name</Th>
              <Th>URL</Th>
              <Th>Events</Th>
              <Th>State</Th>
              <Th />
            </THead>
            <TBody>
              {d.items.map((w) => (
                <WebhookRow key={w.id} webhook={w} />
              ))}
            </TBody>
          </Table>
        )}
      </QueryView>
    </Card>
  )
}

function NewWebhookForm() {
  const client = useQueryClient()
  const [name, setName] = useState('')
  const [url, setUrl] = useState('')
  const [events, setEvents] = useState<WebhookEvent[]>([...EVENTS])
  const create = useMutation({
    mutationFn: () => createWebhook({ name, url, events }),
    onSuccess: () => {
      setName('')
      setUrl('')
      void client.invalidateQueries({ queryKey: queryKeys.webhooks() })
    },
  })
  return (
    <Form className="space-y-2 border-b border-slate-200 p-3" aria-label="Add a webhook" onSubmit={() => create.mutate()}>
      <div className="flex flex-wrap items-end gap-3">
        <Field label="Name">
          <TextInput value={name} onChange={(e) => setName(e.target.value)} placeholder="pager" className="w-36" required />
        </Field>
        <Field label="URL">
          <TextInput value={url} onChange={(e) => setUrl(e.target.value)} placeholder="https://hooks.example.com/toolroom" className="w-80" required />
        </Field>
        {EVENTS.map((ev) => (
          <label key={ev} className="flex h-8 items-center gap-1 text-xs text-slate-700">
            <input
              type="checkbox"
              checked={events.includes(ev)}
              onChange={(e) => setEvents((s) => (e.target.checked ? [...s, ev] : s.filter((x) => x !== ev)))}
            />
            {ev}
          </label>
        ))}
        <Button type="submit" variant="primary" disabled={create.isPending}>
          Add webhook
        </Button>
      </div>
      {create.isError && (
        <p role="alert" className="text-xs text-red-700">
          {(create.error as Error).message}
        </p>
      )}
      {create.data && (
        <div className="space-y-1" data-testid="webhook-secret">
          <p className="text-xs font-medium text-amber-800">The signing secret of “{create.data.name}”. Copy it now: it is not shown again.</p>
          <CodeBlock code={create.data.secret} maxHeight="4rem" />
        </div>
      )}
    </Form>
  )
}

function WebhookRow({ webhook }: { webhook: Webhook }) {
  const client = useQueryClient()
  const [open, setOpen] = useState(false)
  const refresh = () => void client.invalidateQueries({ queryKey: queryKeys.webhooks() })
  const toggle = useMutation({ mutationFn: () => updateWebhook(webhook.id, { enabled: !webhook.enabled }), onSuccess: refresh })
  const remove = useMutation({ mutationFn: () => deleteWebhook(webhook.id), onSuccess: refresh })
  const deliveries = useQuery({ queryKey: queryKeys.webhookDeliveries(webhook.id), queryFn: () => listWebhookDeliveries(webhook.id), enabled: open })
  return (
    <>
      <Tr>
        <Td className="font-medium">{webhook.name}</Td>
        <Td className="break-all font-mono text-xs">{webhook.url}</Td>
        <Td className="text-xs">{webhook.events.join(', ')}</Td>
        <Td>{webhook.enabled ? <Badge tone="green">enabled</Badge> : <Badge>disabled</Badge>}</Td>
        <Td className="text-right">
          <span className="inline-flex flex-wrap justify-end gap-1 md:flex-nowrap">
            <Button variant="ghost" onClick={() => setOpen((o) => !o)} aria-expanded={open}>
              Deliveries
            </Button>
            <Button variant="ghost" onClick={() => toggle.mutate()} disabled={toggle.isPending}>
              {webhook.enabled ? 'Disable' : 'Enable'}
            </Button>
            <Button
              variant="ghost"
              className="text-red-700"
              onClick={() => confirm(`Remove the webhook “${webhook.name}”?`) && remove.mutate()}
              disabled={remove.isPending}
            >
              Remove
            </Button>
          </span>
        </Td>
      </Tr>
      {open && (
        <tr>
          <td colSpan={5} className="bg-slate-50 px-3 py-2">
            <QueryView query={deliveries} isEmpty={(d) => d.items.length === 0} empty={<p className="text-xs text-slate-500">Nothing delivered yet.</p>}>
              {(d) => (
                <ul className="space-y-1 text-xs">
                  {d.items.map((x) => (
                    <li key={x.id} className="flex flex-wrap gap-x-3">
                      <span className="font-mono">{x.event}</span>
                      <Badge tone={x.status === 'delivered' ? 'green' : x.status === 'failed' ? 'red' : 'amber'}>{x.status}</Badge>
                      <span>
                        {x.attempts} attempt{x.attempts === 1 ? '' : 's'}
                      </span>
                      {x.lastStatus !== null && <span>HTTP {x.lastStatus}</span>}
                      {x.lastError && <span className="text-red-700">{x.lastError}</span>}
                      <span className="text-slate-500">{timeAgo(x.createdAt)}</span>
                    </li>
                  ))}
                </ul>
              )}
            </QueryView>
          </td>
        </tr>
      )}
    </>
  )
}
