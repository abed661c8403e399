// better-auth's own endpoints under /api/auth (session lookups, OIDC redirects and callbacks).
// Password sign-in and sign-up are not reachable here: people sign in through POST /api/v1/session
// (audited, problem+json), and only admins create accounts.
import { getAuth } from './better-auth'

const CLOSED = [/^\/api\/auth\/sign-in\/email\/?$/, /^\/api\/auth\/sign-up\b/]

export async function authHandler(request: Request): Promise<Response> {
  const path = new URL(request.url).pathname
  if (CLOSED.some((pattern) => pattern.test(path))) return new Response('Not Found', { status: 404 })
  return getAuth().handler(request)
}
