// Next.js answers a method a route does not export with a bare 405 (no body, no Allow). Every API
// route module exports the methods it lacks from here instead, so the answer is problem+json with
// the `Allow` header listing what the route takes.
import { AppError } from '@/lib/errors/app-error'
import { problemResponse } from '@/lib/errors/problem'

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const
type Method = (typeof METHODS)[number]
type Handler = (request: Request) => Promise<Response>

export function methodsNotAllowed(allowed: Method[]): Record<Method, Handler> {
  const allow = [...allowed, ...(allowed.includes('GET') ? ['HEAD'] : []), 'OPTIONS'].join(', ')
  const refuse: Handler = async (request) => {
    const path = new URL(request.url).pathname
    return problemResponse(
      new AppError('METHOD_NOT_ALLOWED', `${request.method.slice(0, 16)} is not allowed on ${path.slice(0, 200)}; it takes ${allow}`),
      path,
      undefined,
      { allow },
    )
  }
  return Object.fromEntries(METHODS.map((m) => [m, refuse])) as Record<Method, Handler>
}
