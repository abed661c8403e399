'use client'
import { useState } from 'react'
import { Button } from '@/components/ui/button'
import { Form } from '@/components/ui/form'
import type { OidcButton } from '@/lib/auth/oidc-config'
import { STANDALONE_FIELD, STANDALONE_LABEL, StandalonePage } from './standalone-page'

export function SignInForm({ oidc, providerError, continueTo }: { oidc: OidcButton | null; providerError: string | null; continueTo?: string | null }) {
  const [error, setError] = useState<string | null>(providerError ? `Single sign-on failed: ${providerError}` : null)
  const [busy, setBusy] = useState(false)

  const submit = async (form: HTMLFormElement) => {
    setBusy(true)
    setError(null)
    const data = new FormData(form)
    try {
      const res = await fetch('/api/v1/session', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: data.get('email'), password: data.get('password') }),
      })
      if (res.ok) return window.location.assign(continueTo ?? '/')
      const problem = (await res.json().catch(() => ({}))) as { detail?: string }
      setError(problem.detail ?? `sign-in failed (HTTP ${res.status})`)
    } catch (e) {
      setError(`could not reach the server: ${(e as Error).message}`)
    }
    setBusy(false)
  }

  const singleSignOn = async () => {
    if (!oidc) return
    setBusy(true)
    const res = await fetch('/api/auth/sign-in/social', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ provider: oidc.providerId, callbackURL: continueTo ?? '/', errorCallbackURL: '/sign-in' }),
    }).catch(() => null)
    const answer = res?.ok ? ((await res.json()) as { url?: string }) : null
    if (answer?.url) return window.location.assign(answer.url)
    setError(`Single sign-on is not reachable right now (HTTP ${res?.status ?? 'network error'})`)
    setBusy(false)
  }

  return (
    <StandalonePage footer="The system of record for the tools AI agents may call.">
      <h1 className="text-base font-semibold text-slate-900">Sign in</h1>
      {continueTo && <p className="mt-1 text-sm text-slate-600">An MCP client asks to connect to Toolroom; sign in to decide.</p>}
      <Form className="mt-4 space-y-3" onSubmit={(form) => void submit(form)}>
        <label className={STANDALONE_LABEL}>
          Email
          <input name="email" type="email" autoComplete="username" required maxLength={254} className={STANDALONE_FIELD} />
        </label>
        <label className={STANDALONE_LABEL}>
          Password
          <input name="password" type="password" autoComplete="current-password" required maxLength={256} className={STANDALONE_FIELD} />
        </label>
        {error && (
          <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">
            {error}
          </p>
        )}
        <Button type="submit" variant="primary" disabled={busy} className="h-9 w-full">
          {busy ? 'Signing in…' : 'Sign in'}
        </Button>
      </Form>
      {oidc && (
        <>
          <div className="my-4 flex items-center gap-2 text-xs text-slate-400">
            <span className="h-px flex-1 bg-slate-200" />
            or
            <span className="h-px flex-1 bg-slate-200" />
          </div>
          <Button onClick={() => void singleSignOn()} disabled={busy} className="h-9 w-full" data-testid="oidc-sign-in">
            Sign in with {oidc.name}
          </Button>
        </>
      )}
    </StandalonePage>
  )
}
