'use client'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { Button } from '@/components/ui/button'
import { Field, Form, TextInput } from '@/components/ui/form'
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
    <Form
      className="space-y-3"
      onSubmit={() => {
        setDone(null)
        rotate.mutate()
      }}
    >
      <p className="text-xs text-slate-500">
        The values you give replace all current ones; keys left empty are dropped. Values are sealed under the current key and cannot be read back.
      </p>
      <div className="grid gap-3 sm:grid-cols-2">
        {keys.map((key) => (
          <Field key={key} label={<span className="font-mono">{key}</span>}>
            <TextInput
              monospace
              type="password"
              autoComplete="new-password"
              value={values[key] ?? ''}
              onChange={(e) => setValues({ ...values, [key]: e.target.value })}
            />
          </Field>
        ))}
        <Field label="Add a key">
          <TextInput monospace value={extraKey} onChange={(e) => setExtraKey(e.target.value.trim())} placeholder="letters, digits, . _ -" />
        </Field>
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
    </Form>
  )
}
