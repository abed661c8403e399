// Failures the CLI reports, and the exit codes they map to. As kubectl: 0 done, 1 failed; `diff`
// answers 0 (no differences), 1 (differences) or 2 and above (it failed); a command line that is not
// understood exits 2.
import type { components } from './generated/openapi.mjs'

export const EXIT = { ok: 0, failed: 1, differences: 1, diffFailed: 2, usage: 2 } as const

/** Something is wrong with how the CLI was asked (flags, files, configuration): exit 2. */
export class UsageError extends Error {}

/** One broken rule of a refused request, as the API names it (problem+json `errors`). */
export type FieldProblem = components['schemas']['FieldError']

/** The API refused or failed a request: its problem+json, or what went wrong reaching it. */
export class ApiError extends Error {
  /** Where a problem's document and field are in the files the CLI read, when it sent manifests. */
  locate?: (problem: FieldProblem) => string | undefined

  constructor(
    message: string,
    readonly status: number | null,
    readonly title: string,
    readonly problems: FieldProblem[] = [],
  ) {
    super(message)
  }
}
