'use client'
import { useState } from 'react'
import { IntentLink } from '@/components/ui/intent-link'
import { useCaller } from './caller-context'

export function UserMenu() {
  const caller = useCaller()
  const [busy, setBusy] = useState(false)
  if (!caller) return null
  const signOut = async () => {
    setBusy(true)
    await fetch('/api/v1/session', { method: 'DELETE' }).catch(() => undefined)
    // eslint-disable-next-line @next/next/no-location-assign-relative-destination -- a full load drops the signed-out person's cached queries and pages; router.push would keep them in memory
    window.location.assign('/sign-in')
  }
  return (
    <div className="border-t border-slate-800 px-4 py-3" data-testid="user-menu" data-surface="dark">
      <IntentLink
        href="/account"
        className="block truncate text-xs text-slate-200 hover:text-white hover:underline"
        title={`${caller.name}: your account and password`}
      >
        {caller.name}
      </IntentLink>
      <p className="mt-0.5 flex items-center justify-between text-[11px] text-slate-300">
        <span>
          role:{' '}
          <span data-testid="user-role" className="font-medium text-amber-300">
            {caller.role}
          </span>
        </span>
        <button
          type="button"
          onClick={() => void signOut()}
          disabled={busy}
          className="rounded px-1.5 py-0.5 text-slate-300 hover:bg-slate-800 hover:text-white"
        >
          Sign out
        </button>
      </p>
    </div>
  )
}
