'use client'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { Button } from '@/components/ui/button'
import { DecisionComment } from '@/components/ui/decision-comment'
import { Form } from '@/components/ui/form'
import { ApiError, decideSurfaceChange, type SurfaceChange } from '@/lib/client/api'
import { queryKeys } from '@/lib/client/query-keys'

export interface DecisionNotice {
  tone: 'success' | 'conflict'
  text: string
}

/**
 * Accept or reject a change held by pinning, with an optional comment for the record. `onDecided`
 * hears the outcome, for lists where the decided change then leaves (the pending list).
 */
export function DecisionForm({ change, onDecided }: { change: SurfaceChange; onDecided?: (notice: DecisionNotice) => void }) {
  const client = useQueryClient()
  const [comment, setComment] = useState('')
  const decide = useMutation({
    mutationFn: (decision: 'accept' | 'reject') => decideSurfaceChange(change.id, decision, comment.trim() || undefined),
    onSuccess: (decided) => {
      const subject = `${change.namespace}/${change.name}`
      onDecided?.({ tone: 'success', text: `${decided.status === 'accepted' ? 'Accepted' : 'Rejected'} the change to ${subject}.` })
    },
    onError: (error, decision) => {
      if (error instanceof ApiError && error.status === 409)
        onDecided?.({
          tone: 'conflict',
          text: `Your ${decision === 'accept' ? 'acceptance' : 'rejection'} of the change to ${change.namespace}/${change.name} was not recorded: ${error.message}.`,
        })
    },
    onSettled: (_data, error) => {
      // On success and on a 409 alike the list is stale: someone decided this change.
      if (!error || (error instanceof ApiError && error.status === 409)) {
        void client.invalidateQueries({ queryKey: queryKeys.discovery() })
        // Accepting changes the server's tools, and so the effective tool sets built on them.
        void client.invalidateQueries({ queryKey: queryKeys.details('languagetools') })
        void client.invalidateQueries({ queryKey: queryKeys.details('agents') })
        void client.invalidateQueries({ queryKey: queryKeys.details('units') })
      }
    },
  })
  const error = decide.error as ApiError | null
  const pending = decide.isPending ? decide.variables : null
  return (
    <Form className="space-y-2 rounded-md border border-amber-200 bg-amber-50 p-3" aria-label={`Review the change to ${change.namespace}/${change.name}`}>
      <p className="text-xs text-amber-900">
        Held by pinning: agents keep the accepted definitions of the changed tools until this change is accepted. Rejecting keeps them for good; the same change
        is not raised again.
      </p>
      <DecisionComment value={comment} onChange={setComment} keptWith="with the decision" />
      {error && (
        <div role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-xs text-red-900">
          <p className="font-semibold">{error.status === 409 ? 'Already decided' : 'The decision was not recorded'}</p>
          <p className="mt-0.5">{error.message}</p>
        </div>
      )}
      <div className="flex gap-2">
        <Button variant="primary" onClick={() => decide.mutate('accept')} disabled={decide.isPending}>
          {pending === 'accept' && <span aria-hidden className="h-3 w-3 animate-spin rounded-full border-2 border-slate-400 border-t-white" />}
          Accept
        </Button>
        <Button onClick={() => decide.mutate('reject')} disabled={decide.isPending} className="text-red-800 hover:bg-red-50">
          {pending === 'reject' && <span aria-hidden className="h-3 w-3 animate-spin rounded-full border-2 border-red-200 border-t-red-700" />}
          Reject
        </Button>
      </div>
    </Form>
  )
}
