'use client'
// Connect / Reconnect / Disconnect of an upstream connection: the operator's (a LanguageTool's
// Connection card) and a person's own (the Connections page) offer the same three actions.
import { Button } from '@/components/ui/button'

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
