// Requests Next.js would answer with an HTML error page before any of our code runs: a path whose
// percent-encoding does not decode (`%ff`, a lone `%`: its router renders the 400 page) and methods
// outside HTTP's usual set (TRACE, CONNECT, …). The lean front (lib/gateway/server.ts) answers them
// itself, as problem+json like every other API error.
import { AppError } from '@/lib/errors/app-error'
import { problemFor } from './problem'

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'])

export interface EarlyAnswer {
  status: number
  headers: Record<string, string>
  body: string
}

export function refuseRequestTarget(method: string | undefined, url: string | undefined): EarlyAnswer | null {
  const path = (url ?? '/').split('?')[0]
  if (!METHODS.has(method ?? '')) {
    const allow = [...METHODS].join(', ')
    return answer(new AppError('METHOD_NOT_ALLOWED', `the method ${String(method).slice(0, 16)} is not served here; use one of ${allow}`), path, { allow })
  }
  try {
    decodeURIComponent(path)
  } catch {
    return answer(
      new AppError('BAD_REQUEST', 'the path is not valid percent-encoding (each % must start %XX of UTF-8)', [{ field: '(path)', rule: 'percent-encoding', message: 'does not decode as UTF-8' }]),
      null,
    )
  }
  return null
}

function answer(error: AppError, instance: string | null, headers: Record<string, string> = {}): EarlyAnswer {
  const body = JSON.stringify(problemFor(error, instance && !instance.includes('%') ? instance.slice(0, 200) : undefined))
  return { status: error.status, headers: { 'content-type': 'application/problem+json', 'content-length': String(Buffer.byteLength(body)), ...headers }, body }
}
