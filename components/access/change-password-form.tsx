'use client'
// The signed-in person's own password. The server checks the current one and ends every other
// session; this one carries on under a fresh cookie.
import { useMutation } from '@tanstack/react-query'
import { useState } from 'react'
import { Button } from '@/components/ui/button'
import { Card } from '@/components/ui/card'
import { changeOwnPassword } from '@/lib/client/access-api'
import { FIELD, LABEL } from './form-styles'
import { ErrorLine } from './people-manager'

const MIN_LENGTH = 12

export function ChangePasswordForm() {
  const [mismatch, setMismatch] = useState(false)
  const change = useMutation({ mutationFn: changeOwnPassword })
  return (
    <Card title="Password" description={`At least ${MIN_LENGTH} characters. Changing it signs you out everywhere else.`}>
      <form
        method="post"
        className="max-w-sm space-y-3"
        aria-label="Change your password"
        onSubmit={(e) => {
          e.preventDefault()
          const form = e.currentTarget
          const data = new FormData(form)
          const newPassword = String(data.get('newPassword'))
          const same = newPassword === String(data.get('confirmPassword'))
          setMismatch(!same)
          if (same) change.mutate({ currentPassword: String(data.get('currentPassword')), newPassword }, { onSuccess: () => form.reset() })
        }}
      >
        <label className={LABEL}>
          Current password
          <input name="currentPassword" type="password" required maxLength={256} autoComplete="current-password" className={FIELD} />
        </label>
        <label className={LABEL}>
          New password
          <input name="newPassword" type="password" required minLength={MIN_LENGTH} maxLength={256} autoComplete="new-password" className={FIELD} />
        </label>
        <label className={LABEL}>
          New password again
          <input name="confirmPassword" type="password" required minLength={MIN_LENGTH} maxLength={256} autoComplete="new-password" className={FIELD} />
        </label>
        <Button type="submit" variant="primary" disabled={change.isPending}>
          Change password
        </Button>
      </form>
      {mismatch && (
        <p role="alert" className="mt-2 rounded-md border border-red-200 bg-red-50 px-3 py-2 text-xs text-red-900">
          The two new passwords differ.
        </p>
      )}
      {change.error && <ErrorLine error={change.error} />}
      {change.isSuccess && (
        <p role="status" className="mt-2 rounded-md border border-emerald-200 bg-emerald-50 px-3 py-2 text-xs text-emerald-900">
          Password changed. Your other sessions were signed out; this one carries on.
        </p>
      )}
    </Card>
  )
}
