'use client'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { Button } from '@/components/ui/button'
import { ErrorState } from '@/components/ui/states'
import { apiFetch } from '@/lib/client/api'
import { queryKeys } from '@/lib/client/query-keys'
import type { Secret } from './secrets-list'

const KEY = /^[A-Za-z0-9._-]+$/

/**
 * New values for a Secret, written in place: name, labels and every secretRef stay. The inputs are
 * write-only (password fields, emptied after a rotation) and the answer carries key names only.
 */
export function RotateSecretForm({ secret }: { secret: Secret }) {
  const client = useQueryClient()
  const [values, setValues] = useState<Record<string, string>>({})
  const [extraKey, setExtraKey] = useState('')
  const [done, setDone] = useState<number | null>(null)
  const keys = [...secret.spec.keys, ...(extraKey && KEY.test(extraKey) && !secret.spec.keys.includes(extraKey) ? [extraKey] : [])]
  const filled = Object.fromEntries(keys.filter((k) => values[k]).map((k) => [k, values[k]]))
  const rotate = useMutation({
    mutationFn: () =>
      apiFetch<Secret>(`/api/v1/secrets/${encodeURIComponent(secret.id)}/rotate`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ stringData: filled }),
      }),
    onSuccess: (rotated) => {
      setValues({})
      setExtraKey('')
      setDone(rotated.metadata.generation)
      void client.invalidateQueries({ queryKey: queryKeys.all })
    },
  })
  return (
    <form
      method="post"
      className="space-y-3"
      onSubmit={(e) => {
        e.preventDefault()
        setDone(null)
        rotate.mutate()
      }}
    >
      <p className="text-xs text-slate-500">
        The values you give replace all current ones; keys left empty are dropped. Values are sealed under the current key and cannot be read back.
      </p>
      <div className="grid gap-3 sm:grid-cols-2">
        {keys.map((key) => (
          <label key={key} className="flex flex-col gap-0.5 text-xs font-medium text-slate-600">
            <span className="font-mono">{key}</span>
            <input
              type="password"
              autoComplete="new-password"
              value={values[key] ?? ''}
              onChange={(e) => setValues({ ...values, [key]: e.target.value })}
              className="h-8 rounded-md border border-slate-300 bg-white px-2 font-mono text-sm font-normal text-slate-900 focus:border-slate-500 focus:outline-none"
            />
          </label>
        ))}
        <label className="flex flex-col gap-0.5 text-xs font-medium text-slate-600">
          Add a key
          <input
            value={extraKey}
            onChange={(e) => setExtraKey(e.target.value.trim())}
            placeholder="letters, digits, . _ -"
            className="h-8 rounded-md border border-slate-300 bg-white px-2 font-mono text-sm font-normal text-slate-900 placeholder:text-slate-400 focus:border-slate-500 focus:outline-none"
          />
        </label>
      </div>
      <div className="flex items-center gap-3">
        <Button type="submit" variant="primary" disabled={rotate.isPending || Object.keys(filled).length === 0}>
          {rotate.isPending ? 'Rotating…' : 'Rotate values'}
        </Button>
        {done !== null && (
          <span role="status" className="text-xs text-emerald-700">
            Rotated: now generation {done}.
          </span>
        )}
      </div>
      {rotate.isError && <ErrorState error={rotate.error} title="The values were not rotated" />}
    </form>
  )
}
