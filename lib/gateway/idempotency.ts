// Idempotency: the first call with a key (per agent and tool) claims it for the window and runs;
// every repeat within the window, concurrent ones included and in any gateway process, gets the
// first call's answer and never runs the side effect again. Waiting repeats poll the row until the
// first call finishes, up to TOOLROOM_IDEMPOTENCY_WAIT_MS, then answer "still in progress".
// The stored answer is what the repeat must return, unredacted, so it is sealed with the secret key.
import { prisma } from '@/lib/db'
import { openSecretValues, sealSecretValues } from '@/lib/secrets/encryption'

export const IDEMPOTENCY_WINDOW_S = Number(process.env.TOOLROOM_IDEMPOTENCY_WINDOW_SECONDS ?? 86_400)
const WAIT_MS = Number(process.env.TOOLROOM_IDEMPOTENCY_WAIT_MS ?? 30_000)
// A first call still "running" after this long died with its process: a repeat may take the key over.
// Longer than any call can take (timeouts and retries included), so a slow call is never run twice.
const LEASE_S = Number(process.env.TOOLROOM_IDEMPOTENCY_LEASE_SECONDS ?? 3900)

export interface StoredAnswer {
  outcome: string
  answer: unknown
}

export type Claim = { owner: true } | { owner: false; callId: string; stored: StoredAnswer | null }

export async function claimKey(agentId: string, toolId: string, key: string, callId: string): Promise<Claim> {
  const claimed = await prisma.$queryRaw<Array<{ callId: string }>>`
    INSERT INTO "GatewayIdempotency" ("agentId", "toolId", key, "callId", state, "expiresAt")
    VALUES (${agentId}::uuid, ${toolId}, ${key}, ${callId}::uuid, 'running', now() + make_interval(secs => ${IDEMPOTENCY_WINDOW_S}))
    ON CONFLICT ("agentId", "toolId", key) DO UPDATE
      SET "callId" = EXCLUDED."callId", state = 'running', outcome = NULL, result = NULL, "keyId" = NULL, "createdAt" = now(), "expiresAt" = EXCLUDED."expiresAt"
      WHERE "GatewayIdempotency"."expiresAt" < now()
         OR ("GatewayIdempotency".state = 'running' AND "GatewayIdempotency"."createdAt" < now() - make_interval(secs => ${LEASE_S}))
    RETURNING "callId"`
  if (claimed.length > 0) return { owner: true }
  return waitForFirst(agentId, toolId, key, callId)
}

async function waitForFirst(agentId: string, toolId: string, key: string, callId: string): Promise<Claim> {
  const deadline = Date.now() + WAIT_MS
  for (let delay = 10; ; delay = Math.min(delay * 2, 200)) {
    const rows = await prisma.$queryRaw<Array<{ callId: string; state: string; outcome: string | null; result: Uint8Array | null; keyId: string | null }>>`
      SELECT "callId", state, outcome, result, "keyId" FROM "GatewayIdempotency" WHERE "agentId" = ${agentId}::uuid AND "toolId" = ${toolId} AND key = ${key}`
    const row = rows[0]
    if (!row) return claimKey(agentId, toolId, key, callId) // expired and swept meanwhile
    if (row.state === 'done' && row.result && row.keyId) {
      const { answer } = openSecretValues(row.result, row.keyId)
      return { owner: false, callId: row.callId, stored: { outcome: row.outcome ?? 'succeeded', answer: JSON.parse(answer) } }
    }
    if (Date.now() >= deadline) return { owner: false, callId: row.callId, stored: null }
    await new Promise((r) => setTimeout(r, delay))
  }
}

export async function completeKey(agentId: string, toolId: string, key: string, outcome: string, answer: unknown): Promise<void> {
  const { ciphertext, keyId } = sealSecretValues({ answer: JSON.stringify(answer) })
  await prisma.$executeRaw`
    UPDATE "GatewayIdempotency" SET state = 'done', outcome = ${outcome}, result = ${ciphertext}, "keyId" = ${keyId}
    WHERE "agentId" = ${agentId}::uuid AND "toolId" = ${toolId} AND key = ${key}`
}
