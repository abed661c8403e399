// better-auth's own endpoints under /api/auth, limited to what the portal uses: session lookups,
// single sign-on (start and callback) and sign-out. Password sign-in goes through POST /api/v1/session
// (audited, problem+json); people, passwords and roles are managed through /api/v1/users by admins,
// so better-auth's self-service endpoints (sign-up, update-user, change-password, …) stay closed.
import { getAuth } from './better-auth'

const OPEN: { method: string; path: RegExp }[] = [
  { method: 'GET', path: /^\/api\/auth\/(get-session|ok|error)$/ },
  { method: 'POST', path: /^\/api\/auth\/(sign-in\/social|sign-out)$/ },
  { method: 'GET', path: /^\/api\/auth\/callback\/[\w-]+$/ },
  { method: 'POST', path: /^\/api\/auth\/callback\/[\w-]+$/ },
]

export async function authHandler(request: Request): Promise<Response> {
  const path = new URL(request.url).pathname
  if (!OPEN.some((rule) => rule.method === request.method && rule.path.test(path))) return new Response('Not Found', { status: 404 })
  return getAuth().handler(request)
}
