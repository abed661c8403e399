// The one error type that crosses layers. Each code maps to one HTTP status and problem type; the
// set is closed so clients can rely on it.
import type { z } from '@/lib/http/zod'
import type { fieldErrorSchema } from '@/lib/http/problem-schema'

const APP_ERROR_CODES = {
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  REQUEST_TIMEOUT: 408,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  VALIDATION_FAILED: 422,
  TOO_MANY_REQUESTS: 429,
  HEADERS_TOO_LARGE: 431,
  INTERNAL: 500,
} as const

export type AppErrorCode = keyof typeof APP_ERROR_CODES

/** One broken rule: where (document index, field path) and which rule; an entry of a problem answer's `errors`, as its schema declares it. */
export type FieldError = z.output<typeof fieldErrorSchema>

export class AppError extends Error {
  readonly code: AppErrorCode
  readonly errors: FieldError[]

  constructor(code: AppErrorCode, message: string, errors: FieldError[] = []) {
    super(message)
    this.name = 'AppError'
    this.code = code
    this.errors = errors
  }

  get status(): number {
    return APP_ERROR_CODES[this.code]
  }
}

export const notFound = (what: string) => new AppError('NOT_FOUND', `${what} was not found`)
