// RFC 9457 problem details for every API error.
import { AppError, type AppErrorCode, type FieldError } from '@/lib/errors/app-error'
import { maskSecretValues } from '@/lib/secrets/mask-secret-values'

export const PROBLEM_CONTENT_TYPE = 'application/problem+json'

const TITLES: Record<AppErrorCode, string> = {
  BAD_REQUEST: 'Bad request',
  UNAUTHORIZED: 'Authentication required',
  FORBIDDEN: 'Forbidden',
  NOT_FOUND: 'Not found',
  METHOD_NOT_ALLOWED: 'Method not allowed',
  REQUEST_TIMEOUT: 'Request timeout',
  CONFLICT: 'Conflict',
  PAYLOAD_TOO_LARGE: 'Payload too large',
  UNSUPPORTED_MEDIA_TYPE: 'Unsupported media type',
  VALIDATION_FAILED: 'Validation failed',
  TOO_MANY_REQUESTS: 'Too many requests',
  HEADERS_TOO_LARGE: 'Request header fields too large',
  INTERNAL: 'Internal error',
}

export interface Problem {
  type: string
  title: string
  status: number
  detail: string
  instance?: string
  requestId?: string
  errors?: FieldError[]
}

export function problemFor(error: AppError, instance?: string, requestId?: string): Problem {
  return {
    type: `https://toolroom.dev/problems/${error.code.toLowerCase().replace(/_/g, '-')}`,
    title: TITLES[error.code],
    status: error.status,
    // An upstream error can quote a header or body that carried a secret this process opened.
    detail: maskSecretValues(error.message),
    ...(instance ? { instance } : {}),
    ...(requestId ? { requestId } : {}),
    ...(error.errors.length ? { errors: error.errors.map((e) => ({ ...e, message: maskSecretValues(e.message) })) } : {}),
  }
}

export function problemResponse(error: AppError, instance?: string, requestId?: string, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(problemFor(error, instance, requestId)), {
    status: error.status,
    headers: { 'content-type': PROBLEM_CONTENT_TYPE, ...headers },
  })
}

/** Errors from below (Prisma, JSON) that have a meaning for the client. */
export function toAppError(error: unknown): AppError | null {
  if (error instanceof AppError) return error
  const code = (error as { code?: unknown })?.code
  if (code === 'P2002') return new AppError('CONFLICT', 'a resource with that name already exists (written concurrently); retry the request')
  if (code === 'P2025') return new AppError('NOT_FOUND', 'the resource was deleted concurrently')
  return null
}
