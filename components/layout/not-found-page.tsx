// The portal's 404: where the reader is (nowhere), and the ways back. Signed in, it keeps the whole
// frame (navigation, search); signed out, it offers the sign-in page.
import { CallerProvider } from '@/components/access/caller-context'
import { IntentLink } from '@/components/ui/intent-link'
import type { Actor } from '@/lib/auth/access-rules'
import { NAV_ITEMS } from './nav-items'
import { PortalShell } from './portal-shell'

const SUGGESTED = ['/', '/agents', '/tools', '/approvals', '/calls']

function Message({ signedIn }: { signedIn: boolean }) {
  const links = NAV_ITEMS.filter((i) => SUGGESTED.includes(i.href))
  return (
    <div className="mx-auto max-w-xl py-10 text-center" data-testid="not-found">
      <p className="font-mono text-sm font-semibold text-amber-700">404</p>
      <h1 className="mt-2 text-2xl font-semibold text-slate-900">Page not found</h1>
      <p className="mt-2 text-sm text-slate-600">
        Nothing lives at this address. It may have been mistyped, or the link that led here is out of date.
        {signedIn ? ' Search for what you were after (Ctrl K), or go to one of these:' : ''}
      </p>
      {signedIn ? (
        <ul className="mt-6 flex flex-wrap justify-center gap-2">
          {links.map((l) => (
            <li key={l.href}>
              <IntentLink
                href={l.href}
                className="inline-block rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-800 hover:bg-slate-100"
              >
                {l.label}
              </IntentLink>
            </li>
          ))}
        </ul>
      ) : (
        <p className="mt-6">
          <IntentLink href="/sign-in" className="inline-block rounded-md bg-slate-900 px-3 py-1.5 text-sm font-medium text-white hover:bg-slate-700">
            Sign in
          </IntentLink>
        </p>
      )}
    </div>
  )
}

export function NotFoundPage({ actor }: { actor: Actor | null }) {
  if (!actor)
    return (
      <main id="main" className="grid min-h-screen place-items-center px-4">
        <Message signedIn={false} />
      </main>
    )
  return (
    <CallerProvider caller={{ id: actor.id, name: actor.name, role: actor.roles[0] }}>
      <PortalShell>
        <Message signedIn />
      </PortalShell>
    </CallerProvider>
  )
}
