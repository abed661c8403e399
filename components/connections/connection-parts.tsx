'use client'
// What an upstream connection shows wherever it is: the operator's (a LanguageTool's Connection card)
// and a person's own (the Connections page) have the same states, times and three actions.
import { Button } from '@/components/ui/button'
import { dateTime, timeAgo } from '@/lib/client/format'

export const CONNECTION_STATE: Record<'connected' | 'not_connected' | 'reconnect', { tone: 'green' | 'amber' | 'red'; label: string }> = {
  connected: { tone: 'green', label: 'connected' },
  not_connected: { tone: 'amber', label: 'not connected' },
  reconnect: { tone: 'red', label: 'needs reconnecting' },
}

/** A time as "5 minutes ago (27 Nov 2026, 18:27 UTC)", or "never". */
export function When({ at }: { at: string | null }) {
  if (!at) return <span className="text-slate-400">never</span>
  return (
    <span title={dateTime(at)}>
      {timeAgo(at)} <span className="text-xs text-slate-500">({dateTime(at)})</span>
    </span>
  )
}

interface Pending {
  mutate: () => void
  isPending: boolean
}

export function ConnectionActions({ state, connect, disconnect }: { state: string; connect: Pending; disconnect: Pending }) {
  return (
    <span className="flex flex-wrap justify-end gap-2">
      {state !== 'not_connected' && (
        <Button variant="ghost" onClick={() => disconnect.mutate()} disabled={disconnect.isPending}>
          Disconnect
        </Button>
      )}
      <Button
        variant={state === 'connected' ? 'secondary' : 'primary'}
        onClick={() => connect.mutate()}
        disabled={connect.isPending}
        aria-busy={connect.isPending}
      >
        {state === 'not_connected' ? 'Connect' : 'Reconnect'}
      </Button>
    </span>
  )
}
