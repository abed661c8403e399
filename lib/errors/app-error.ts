// The one error type that crosses layers. Each code maps to one HTTP status and problem type; the
// set is closed so clients can rely on it.
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

/** One broken rule: where (document index, field path) and which rule. */
export interface FieldError {
  /** Index of the document in a multi-document manifest; absent for single requests. */
  document?: number
  kind?: string
  name?: string
  /** Dotted path of the field, e.g. `spec.inputSchema.properties.priority`. */
  field: string
  /** Short machine-readable rule id: `canonical-id`, `reserved-namespace`, `json-schema`, ... */
  rule: string
  message: string
  /** Where in a manifest's text the problem is (1-based; Apply answers only). */
  line?: number
  column?: number
}

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
