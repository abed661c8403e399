// Conditional reads (RFC 9110 §8.8.3, §13.1.2): the validator of a GET answer, derived from the state the
// answer is made of (never by hashing the answer), and the headers that go with it (the If-None-Match
// test is the pure if-none-match.ts). The route
// wrapper (route.ts) uses both, so a route only declares where its answer comes from (its contract's
// `etag`). Design: docs/design/resource-model.md#conditional-reads.
import 'server-only'
import { createHash, randomBytes } from 'node:crypto'
import type { Actor } from '@/lib/auth/access-rules'
import { registryStateVersion } from '@/lib/registry/registry-state'
import type { ConditionalReads } from './contract'

/**
 * The registry epoch counts the change announcements this process has heard since it started: the same
 * number means different states in two processes (or after a restart). Tags are salted with a value
 * drawn per process so they never match across processes: a client that lands on another process gets
 * a full answer, never a wrong 304. The salt also makes tags unguessable, so a 304 tells a caller
 * nothing it did not already hold.
 */
const salt: Buffer = ((globalThis as { __toolroomEtagSalt?: Buffer }).__toolroomEtagSalt ??= randomBytes(16))

export interface ValidatorInput {
  operationId: string
  params: unknown
  query: unknown
  /** `json` or `yaml`: one address, two representations, two tags. */
  representation: string
  actor: Actor | null
  origin: string
}

/**
 * The weak entity tag of the answer about to be computed, or null when none can be given (the change
 * listener is down: a change could go unnoticed). Weak because the tag is read before the answer: a
 * change committed while the answer is computed may or may not be in it until its announcement
 * arrives and moves the tag, so two answers under one tag are equivalent, not byte-identical.
 */
export async function validatorOf(conditional: ConditionalReads, input: ValidatorInput): Promise<string | null> {
  const state = await registryStateVersion()
  if (state === null) return null
  const varies = conditional.varies ?? []
  const parts = [
    conditional.from,
    state,
    input.operationId,
    JSON.stringify(input.params ?? null),
    JSON.stringify(sortedKeys(input.query ?? null)),
    input.representation,
    varies.includes('caller') ? `${input.actor?.kind ?? 'anonymous'}:${input.actor?.id ?? ''}` : '',
    varies.includes('origin') ? input.origin : '',
  ]
  const digest = createHash('sha256').update(salt).update(JSON.stringify(parts)).digest('base64url').slice(0, 27)
  return `W/"${digest}"`
}

function sortedKeys(value: unknown): unknown {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return value
  return Object.fromEntries(Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
}

/**
 * Headers of a tagged answer and of its 304. `private`: these answers are for an authenticated caller,
 * never for a shared cache. `no-cache`: a browser may keep the answer but asks again (conditionally)
 * before each use, so the portal gets 304s without ever showing a stale registry.
 */
export function validatorHeaders(etag: string, negotiated: boolean): Record<string, string> {
  return { etag, 'cache-control': 'private, no-cache', ...(negotiated ? { vary: 'Accept' } : {}) }
}
