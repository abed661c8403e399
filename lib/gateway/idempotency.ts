// Idempotency: the first call with a key (in its scope, below) claims it for the window and runs;
// every repeat within the window, concurrent ones included and in any gateway process, gets the
// first call's answer and never runs the side effect again. Waiting repeats poll the row until the
// first call finishes, up to TOOLROOM_IDEMPOTENCY_WAIT_MS, then answer "still in progress".
// The stored answer is what the repeat must return, unredacted, so it is sealed with the secret key.
import 'server-only'
import { config } from '@/lib/config'
import { openSecretValues, sealSecretValues } from '@/lib/secrets/encryption'
import { db, sql, type Tables } from '@/lib/sql'
import type { ExpressionBuilder } from 'kysely'

/**
 * Whose a key is. A key the caller sends is the caller's: per agent and tool name. A key rendered from
 * the tool's idempotencyKeyTemplate describes the side effect itself, so it is the tool's, across
 * agents: per resolved tool (its stat key: source and name), owned by no agent (the nil UUID).
 */
export interface KeyScope {
  owner: string
  toolId: string
}
const TOOL_WIDE = '00000000-0000-0000-0000-000000000000'
export const callerKeyScope = (agentId: string, toolName: string): KeyScope => ({ owner: agentId, toolId: toolName })
export const templateKeyScope = (resolvedToolKey: string): KeyScope => ({ owner: TOOL_WIDE, toolId: resolvedToolKey })

// A first call still "running" after TOOLROOM_IDEMPOTENCY_LEASE_SECONDS died with its process: a repeat
// may take the key over. Longer than any call can take (timeouts and retries included), so a slow call
// is never run twice.

export interface StoredAnswer {
  outcome: string
  answer: unknown
}

export type Claim = { owner: true } | { owner: false; callId: string; stored: StoredAnswer | null }

// A stored key no longer holds once its window ended, or when its first call died (still running past
// the lease): then the next call with it claims it and runs.
const keyReleased = (eb: ExpressionBuilder<Tables, 'GatewayIdempotency'>) =>
  eb.or([
    eb('GatewayIdempotency.expiresAt', '<', sql<Date>`now()`),
    eb.and([
      eb('GatewayIdempotency.state', '=', 'running'),
      eb('GatewayIdempotency.createdAt', '<', sql<Date>`now() - make_interval(secs => ${config().TOOLROOM_IDEMPOTENCY_LEASE_SECONDS})`),
    ]),
  ])

export async function claimKey(scope: KeyScope, key: string, callId: string): Promise<Claim> {
  const { owner: agentId, toolId } = scope
  const claimed = await db
    .insertInto('GatewayIdempotency')
    .values({
      agentId,
      toolId,
      key,
      callId,
      state: 'running',
      expiresAt: sql<Date>`now() + make_interval(secs => ${config().TOOLROOM_IDEMPOTENCY_WINDOW_SECONDS})`,
    })
    .onConflict((oc) =>
      oc
        .columns(['agentId', 'toolId', 'key'])
        .doUpdateSet((eb) => ({
          callId: eb.ref('excluded.callId'),
          state: 'running',
          outcome: null,
          result: null,
          keyId: null,
          createdAt: sql<Date>`now()`,
          expiresAt: eb.ref('excluded.expiresAt'),
        }))
        .where((eb) => keyReleased(eb as unknown as ExpressionBuilder<Tables, 'GatewayIdempotency'>)),
    )
    .returning('callId')
    .execute()
  if (claimed.length > 0) return { owner: true }
  return waitForFirst(scope, key, callId)
}

/** running: the first call holds the key; done: its sealed answer is kept for repeats. */
export const IDEMPOTENCY_STATES = ['running', 'done'] as const

export interface HeldKey {
  callId: string
  state: (typeof IDEMPOTENCY_STATES)[number]
  outcome: string | null
  expiresAt: Date
}

/** The call a key is held by now, if any: a call with it would get that call's answer instead of running. Reads only. */
export async function heldKey(scope: KeyScope, key: string): Promise<HeldKey | null> {
  const row = await db
    .selectFrom('GatewayIdempotency')
    .select(['callId', 'state', 'outcome', 'expiresAt'])
    .where('agentId', '=', scope.owner)
    .where('toolId', '=', scope.toolId)
    .where('key', '=', key)
    .where((eb) => eb.not(keyReleased(eb)))
    .executeTakeFirst()
  return row ? { ...row, state: row.state as HeldKey['state'] } : null
}

async function waitForFirst(scope: KeyScope, key: string, callId: string): Promise<Claim> {
  const { owner: agentId, toolId } = scope
  const deadline = Date.now() + config().TOOLROOM_IDEMPOTENCY_WAIT_MS
  for (let delay = 10; ; delay = Math.min(delay * 2, 200)) {
    const row = await db
      .selectFrom('GatewayIdempotency')
      .select(['callId', 'state', 'outcome', 'result', 'keyId'])
      .where('agentId', '=', agentId)
      .where('toolId', '=', toolId)
      .where('key', '=', key)
      .executeTakeFirst()
    if (!row) return claimKey(scope, key, callId) // expired and swept meanwhile
    if (row.state === 'done' && row.result && row.keyId) {
      const { answer } = openSecretValues(row.result, row.keyId)
      return { owner: false, callId: row.callId, stored: { outcome: row.outcome ?? 'succeeded', answer: JSON.parse(answer) } }
    }
    if (Date.now() >= deadline) return { owner: false, callId: row.callId, stored: null }
    await new Promise((r) => setTimeout(r, delay))
  }
}

/** Stores the answer of the call that claimed `key` in one of `scopes` (a key taken over since is left alone). */
export async function completeKey(scopes: KeyScope[], key: string, callId: string, outcome: string, answer: unknown): Promise<void> {
  const { ciphertext, keyId } = sealSecretValues({ answer: JSON.stringify(answer) })
  for (const { owner, toolId } of scopes)
    await db
      .updateTable('GatewayIdempotency')
      .set({ state: 'done', outcome, result: ciphertext, keyId })
      .where('agentId', '=', owner)
      .where('toolId', '=', toolId)
      .where('key', '=', key)
      .where('callId', '=', callId)
      .execute()
}
