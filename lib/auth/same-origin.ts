// CSRF protection for cookie-authenticated changes and for sign-in and sign-out: the browser names the
// page that sent a request in `Origin` (and `Sec-Fetch-Site`), which another site cannot forge. A
// change is accepted only when that page is on our own host (or TOOLROOM_PUBLIC_URL's). Every route
// that a browser's cookie could carry a change to goes through this one rule: the API route wrapper
// and better-auth's own endpoints under /api/auth.
import 'server-only'
import { config } from '@/lib/config'
import { AppError } from '@/lib/errors/app-error'
import { requestOrigin } from '@/lib/request-origin/public-origin'

export function checkSameOrigin(request: Request): void {
  const origin = request.headers.get('origin')
  if (origin && origin !== 'null') {
    let host: string
    try {
      host = new URL(origin).host
    } catch {
      throw refused(`the Origin header "${origin.slice(0, 100)}" is not a URL`)
    }
    if (ownHosts(request).has(host.toLowerCase())) return
    throw refused(`requests from ${origin.slice(0, 100)} may not change anything here`)
  }
  if (request.headers.get('sec-fetch-site') === 'same-origin') return
  throw refused(
    `the request names no Origin; browsers send one. Scripts send \`Origin: ${requestOrigin(request) ?? 'https://<the address you reach Toolroom at>'}\` to sign in (and with the session cookie after), or use an API token (Authorization: Bearer trk_…), which needs no Origin`,
  )
}

function ownHosts(request: Request): Set<string> {
  const hosts = new Set<string>()
  const add = (value: string | null | undefined) => value && hosts.add(value.split(',')[0].trim().toLowerCase())
  add(request.headers.get('host'))
  add(request.headers.get('x-forwarded-host'))
  add(new URL(request.url).host)
  const configured = config().TOOLROOM_PUBLIC_URL
  if (configured) add(new URL(configured).host)
  return hosts
}

const refused = (why: string) =>
  new AppError('FORBIDDEN', `cross-site request refused (CSRF protection): ${why}`, [{ field: '(header) Origin', rule: 'same-origin', message: why }])
