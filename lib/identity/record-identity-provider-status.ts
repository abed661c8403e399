// Keeps an IdentityProvider's status (docs/design/access.md#identity-provider-status) from what its
// subject-token checks see, at no cost to a token exchange beyond what it already does: its keys'
// state is written when they are fetched (jose fetches a key set at most every 30 s per provider) or
// when fetching them fails in a way not written in the last minute; refusals are counted in memory and
// added to the row in one write per provider at most every REFUSALS_FLUSH_MS. A status write that
// fails is logged and never fails the exchange: the next observation writes it again.
import 'server-only'
import { prisma } from '@/lib/db'
import { Prisma } from '@/lib/generated/prisma/client'
import { sqlIn } from '@/lib/sql'
import { addRefusals, boundedProviderError, keysStatus, type KeysObservation, type RefusalReason } from './identity-provider-conditions'

/** The same failure is written again after this long (another replica may have written a recovery meanwhile). */
const SAME_FAILURE_REWRITE_MS = 60_000
/** Refusals counted in one process reach the row at most this often per provider. */
export const REFUSALS_FLUSH_MS = 10_000

interface PendingRefusals {
  counted: Map<RefusalReason, { count: number; lastAt: Date }>
  timer: NodeJS.Timeout | null
  lastFlushAt: number
}

const memory = ((
  globalThis as { __toolroomIdpStatus?: { failures: Map<string, { error: string; at: number }>; refusals: Map<string, PendingRefusals> } }
).__toolroomIdpStatus ??= { failures: new Map(), refusals: new Map() })

/** What fetching a provider's keys gave (by its issuer, which is unique). */
export function noteKeysObserved(issuer: string, observation: KeysObservation): void {
  if (!observation.fetched) {
    const error = boundedProviderError(observation.error)
    const known = memory.failures.get(issuer)
    if (known && known.error === error && Date.now() - known.at < SAME_FAILURE_REWRITE_MS) return
    if (memory.failures.size > 1000) memory.failures.clear()
    memory.failures.set(issuer, { error, at: Date.now() })
  } else memory.failures.delete(issuer)
  void writeKeys(issuer, observation).catch((e: unknown) =>
    console.error('[identity-provider] status write failed; the next fetch writes it:', (e as Error).message),
  )
}

async function writeKeys(issuer: string, observation: KeysObservation): Promise<void> {
  const now = new Date()
  const row = await prisma.identityProvider.findUnique({ where: { issuer }, select: { conditions: true } })
  if (!row) return
  const { phase, conditions } = keysStatus(observation, row.conditions, now)
  await prisma.identityProvider.updateMany({
    where: { issuer },
    data: {
      phase,
      conditions: conditions as unknown as Prisma.InputJsonValue,
      ...(observation.fetched
        ? { jwksFetchedAt: now, jwksKeyCount: observation.keyCount, lastError: null, lastErrorAt: null }
        : { lastError: boundedProviderError(observation.error), lastErrorAt: now }),
    },
  })
}

/** A subject token of this provider was refused: counted now, written with the others soon. */
export function noteRefusal(issuer: string, reason: RefusalReason): void {
  let pending = memory.refusals.get(issuer)
  if (!pending) {
    if (memory.refusals.size > 1000) return // providers are few; a flood of issuers is no provider's
    pending = { counted: new Map(), timer: null, lastFlushAt: 0 }
    memory.refusals.set(issuer, pending)
  }
  const before = pending.counted.get(reason)
  pending.counted.set(reason, { count: (before?.count ?? 0) + 1, lastAt: new Date() })
  if (pending.timer) return
  const wait = Math.max(0, pending.lastFlushAt + REFUSALS_FLUSH_MS - Date.now())
  pending.timer = setTimeout(() => void flushRefusals(issuer), wait)
  pending.timer.unref()
}

async function flushRefusals(issuer: string): Promise<void> {
  const pending = memory.refusals.get(issuer)
  if (!pending) return
  const counted = pending.counted
  pending.counted = new Map()
  pending.timer = null
  pending.lastFlushAt = Date.now()
  try {
    await prisma.$transaction(async (tx) => {
      // Replicas add their counts to the same row: each reads it locked.
      const row = await sqlIn(tx).selectFrom('IdentityProvider').select('refusals').where('issuer', '=', issuer).forUpdate().executeTakeFirst()
      if (!row) return
      await tx.identityProvider.update({ where: { issuer }, data: { refusals: addRefusals(row.refusals, counted) as Prisma.InputJsonValue } })
    })
  } catch (e) {
    console.error('[identity-provider] refusal counts not written:', (e as Error).message)
  }
}
