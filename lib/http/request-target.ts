// Requests Next.js would answer with an HTML error page before any of our code runs: a path whose
// percent-encoding does not decode (`%ff`, a lone `%`: its router renders the 400 page) and methods
// outside HTTP's usual set (TRACE, CONNECT, …). The lean front (lib/gateway/server.ts) answers them
// itself, as problem+json like every other API error.
import { AppError } from '@/lib/errors/app-error'
import { problemFor } from '@/lib/errors/problem'

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
      new AppError('BAD_REQUEST', 'the path is not valid percent-encoding (each % must start %XX of UTF-8)', [
        { field: '(path)', rule: 'percent-encoding', message: 'does not decode as UTF-8' },
      ]),
      null,
    )
  }
  return null
}

const STATUS_TEXT: Record<number, string> = { 400: 'Bad Request', 408: 'Request Timeout', 431: 'Request Header Fields Too Large' }

/**
 * The whole HTTP message for a request Node's parser gave up on (Node would answer a bare 400/431/408
 * and reset the connection): problem+json like every other error, and `connection: close`.
 */
export function answerClientError(code: string | undefined): string {
  const error =
    code === 'HPE_HEADER_OVERFLOW'
      ? new AppError(
          'HEADERS_TOO_LARGE',
          'the request line and headers are larger than this server reads (16 KiB); send long filters in a body or shorten them',
        )
      : code === 'HPE_HEADER_TIMEOUT' || code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? new AppError('REQUEST_TIMEOUT', 'the request did not arrive in time')
        : new AppError('BAD_REQUEST', 'the request is not valid HTTP/1.1')
  const { status, headers, body } = answer(error, null, { connection: 'close' })
  const head = Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('')
  return `HTTP/1.1 ${status} ${STATUS_TEXT[status]}\r\n${head}\r\n${body}`
}

function answer(error: AppError, instance: string | null, headers: Record<string, string> = {}): EarlyAnswer {
  const body = JSON.stringify(problemFor(error, instance && !instance.includes('%') ? instance.slice(0, 200) : undefined))
  return { status: error.status, headers: { 'content-type': 'application/problem+json', 'content-length': String(Buffer.byteLength(body)), ...headers }, body }
}
