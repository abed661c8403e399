'use client'
// The signed-in person's own password. The server checks the current one and ends every other
// session; this one carries on under a fresh cookie.
import { useMutation } from '@tanstack/react-query'
import { useState } from 'react'
import { Button } from '@/components/ui/button'
import { Card } from '@/components/ui/card'
import { Field, Form, TextInput } from '@/components/ui/form'
import { changeOwnPassword } from '@/lib/client/access-api'
import { ErrorLine } from './error-line'

const MIN_LENGTH = 12

export function ChangePasswordForm() {
  const [mismatch, setMismatch] = useState(false)
  const change = useMutation({ mutationFn: changeOwnPassword })
  return (
    <Card title="Password" description={`At least ${MIN_LENGTH} characters. Changing it signs you out everywhere else.`}>
      <Form
        className="max-w-sm space-y-3"
        aria-label="Change your password"
        onSubmit={(form) => {
          const data = new FormData(form)
          const newPassword = String(data.get('newPassword'))
          const same = newPassword === String(data.get('confirmPassword'))
          setMismatch(!same)
          if (same) change.mutate({ currentPassword: String(data.get('currentPassword')), newPassword }, { onSuccess: () => form.reset() })
        }}
      >
        <Field label="Current password">
          <TextInput name="currentPassword" type="password" required maxLength={256} autoComplete="current-password" />
        </Field>
        <Field label="New password">
          <TextInput name="newPassword" type="password" required minLength={MIN_LENGTH} maxLength={256} autoComplete="new-password" />
        </Field>
        <Field label="New password again">
          <TextInput name="confirmPassword" type="password" required minLength={MIN_LENGTH} maxLength={256} autoComplete="new-password" />
        </Field>
        <Button type="submit" variant="primary" disabled={change.isPending}>
          Change password
        </Button>
      </Form>
      {mismatch && <ErrorLine error="The two new passwords differ." />}
      {change.error && <ErrorLine error={change.error} />}
      {change.isSuccess && (
        <p role="status" className="mt-2 rounded-md border border-emerald-200 bg-emerald-50 px-3 py-2 text-xs text-emerald-900">
          Password changed. Your other sessions were signed out; this one carries on.
        </p>
      )}
    </Card>
  )
}
