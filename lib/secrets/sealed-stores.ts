// Every place outside Secret that holds a value sealed with TOOLROOM_SECRET_KEY (lib/secrets/encryption.ts),
// so a key change re-seals all of them (./reencrypt-secrets.ts): once the old key is dropped from
// TOOLROOM_SECRET_KEYS_PREVIOUS, anything still under it could never be opened again (a webhook that
// cannot sign, an OAuth client that cannot authenticate, an approved call that cannot run, a person's
// delegated token that cannot be exchanged). A model
// that gains a sealed column is added here; tests/integration/secrets.test.ts checks that every
// sealed column of the schema is listed.
import 'server-only'
import { prisma } from '@/lib/db'

/** A stale sealed value: its row's key, what is stored and the key it was sealed under. */
export interface StaleSeal {
  id: string
  sealed: Uint8Array
  keyId: string
}

export interface SealedStore {
  /** `Model.column`, as the report and the audit name it. */
  name: string
  /** Up to `take` values not under `keyId`, after the first `skip` of them (in key order). */
  stale(keyId: string, skip: number, take: number): Promise<StaleSeal[]>
  /** Replaces one value, only if it is still the one sealed under `from.keyId`; whether it did. */
  replace(stale: StaleSeal, next: { ciphertext: Uint8Array<ArrayBuffer>; keyId: string }): Promise<boolean>
}

const bytes = (b: Uint8Array) => new Uint8Array(b)

// GatewayIdempotency's key is three columns: one string for the report, split back to write.
const SEP = '\u0000'

/** The OAuth provider stores a client secret as `keyId:base64` in one text column (lib/oauth/oauth-secrets.ts). */
function splitClientSecret(stored: string): { keyId: string; sealed: Uint8Array } | null {
  const at = stored.indexOf(':')
  return at < 1 ? null : { keyId: stored.slice(0, at), sealed: Buffer.from(stored.slice(at + 1), 'base64') }
}

export const SEALED_STORES: readonly SealedStore[] = [
  {
    name: 'WebhookEndpoint.secretCiphertext',
    stale: async (keyId, skip, take) =>
      (
        await prisma.webhookEndpoint.findMany({
          where: { keyId: { not: keyId } },
          select: { id: true, secretCiphertext: true, keyId: true },
          orderBy: { id: 'asc' },
          skip,
          take,
        })
      ).map((r) => ({ id: r.id, sealed: r.secretCiphertext, keyId: r.keyId })),
    replace: async (s, next) =>
      (await prisma.webhookEndpoint.updateMany({ where: { id: s.id, keyId: s.keyId }, data: { secretCiphertext: bytes(next.ciphertext), keyId: next.keyId } }))
        .count === 1,
  },
  {
    name: 'OauthClient.clientSecret',
    stale: async (keyId, skip, take) =>
      (
        await prisma.oauthClient.findMany({
          where: { clientSecret: { not: null }, NOT: { clientSecret: { startsWith: `${keyId}:` } } },
          select: { id: true, clientSecret: true },
          orderBy: { id: 'asc' },
          skip,
          take,
        })
      )
        // Not in the sealed form: no key opens it, so it is reported as a failure rather than skipped quietly.
        .map((r) => ({ id: r.id, ...(splitClientSecret(r.clientSecret!) ?? { keyId: '(not sealed)', sealed: new Uint8Array() }) })),
    replace: async (s, next) => {
      const before = `${s.keyId}:${Buffer.from(s.sealed).toString('base64')}`
      const after = `${next.keyId}:${Buffer.from(next.ciphertext).toString('base64')}`
      return (await prisma.oauthClient.updateMany({ where: { id: s.id, clientSecret: before }, data: { clientSecret: after } })).count === 1
    },
  },
  {
    name: 'ApprovalRequest.argsSealed',
    stale: async (keyId, skip, take) =>
      (
        await prisma.approvalRequest.findMany({
          where: { argsSealed: { not: null }, argsKeyId: { not: keyId } },
          select: { id: true, argsSealed: true, argsKeyId: true },
          orderBy: { id: 'asc' },
          skip,
          take,
        })
      ).map((r) => ({ id: r.id, sealed: r.argsSealed!, keyId: r.argsKeyId! })),
    replace: async (s, next) =>
      (
        await prisma.approvalRequest.updateMany({
          where: { id: s.id, argsKeyId: s.keyId },
          data: { argsSealed: bytes(next.ciphertext), argsKeyId: next.keyId },
        })
      ).count === 1,
  },
  {
    name: 'ApprovalRequest.resultSealed',
    stale: async (keyId, skip, take) =>
      (
        await prisma.approvalRequest.findMany({
          where: { resultSealed: { not: null }, resultKeyId: { not: keyId } },
          select: { id: true, resultSealed: true, resultKeyId: true },
          orderBy: { id: 'asc' },
          skip,
          take,
        })
      ).map((r) => ({ id: r.id, sealed: r.resultSealed!, keyId: r.resultKeyId! })),
    replace: async (s, next) =>
      (
        await prisma.approvalRequest.updateMany({
          where: { id: s.id, resultKeyId: s.keyId },
          data: { resultSealed: bytes(next.ciphertext), resultKeyId: next.keyId },
        })
      ).count === 1,
  },
  {
    name: 'GatewayIdempotency.result',
    stale: async (keyId, skip, take) =>
      (
        await prisma.gatewayIdempotency.findMany({
          where: { result: { not: null }, keyId: { not: keyId } },
          select: { agentId: true, toolId: true, key: true, result: true, keyId: true },
          orderBy: [{ agentId: 'asc' }, { toolId: 'asc' }, { key: 'asc' }],
          skip,
          take,
        })
      ).map((r) => ({ id: [r.agentId, r.toolId, r.key].join(SEP), sealed: r.result!, keyId: r.keyId! })),
    replace: async (s, next) => {
      const [agentId, toolId, key] = s.id.split(SEP)
      return (
        (
          await prisma.gatewayIdempotency.updateMany({
            where: { agentId, toolId, key, keyId: s.keyId },
            data: { result: bytes(next.ciphertext), keyId: next.keyId },
          })
        ).count === 1
      )
    },
  },
  {
    name: 'DelegatedAccessToken.subjectCiphertext',
    stale: async (keyId, skip, take) =>
      (
        await prisma.delegatedAccessToken.findMany({
          where: { subjectCiphertext: { not: null }, subjectKeyId: { not: keyId } },
          select: { id: true, subjectCiphertext: true, subjectKeyId: true },
          orderBy: { id: 'asc' },
          skip,
          take,
        })
      ).map((r) => ({ id: r.id, sealed: r.subjectCiphertext!, keyId: r.subjectKeyId! })),
    replace: async (s, next) =>
      (
        await prisma.delegatedAccessToken.updateMany({
          where: { id: s.id, subjectKeyId: s.keyId },
          data: { subjectCiphertext: bytes(next.ciphertext), subjectKeyId: next.keyId },
        })
      ).count === 1,
  },
  {
    name: 'UpstreamToken.ciphertext',
    stale: async (keyId, skip, take) =>
      (
        await prisma.upstreamToken.findMany({
          where: { ciphertext: { not: null }, keyId: { not: keyId } },
          select: { key: true, ciphertext: true, keyId: true },
          orderBy: { key: 'asc' },
          skip,
          take,
        })
      ).map((r) => ({ id: r.key, sealed: r.ciphertext!, keyId: r.keyId! })),
    replace: async (s, next) =>
      (await prisma.upstreamToken.updateMany({ where: { key: s.id, keyId: s.keyId }, data: { ciphertext: bytes(next.ciphertext), keyId: next.keyId } }))
        .count === 1,
  },
  {
    name: 'UpstreamConnection.ciphertext',
    stale: async (keyId, skip, take) =>
      (
        await prisma.upstreamConnection.findMany({
          where: { ciphertext: { not: null }, keyId: { not: keyId } },
          select: { id: true, ciphertext: true, keyId: true },
          orderBy: { id: 'asc' },
          skip,
          take,
        })
      ).map((r) => ({ id: r.id, sealed: r.ciphertext!, keyId: r.keyId! })),
    replace: async (s, next) =>
      (await prisma.upstreamConnection.updateMany({ where: { id: s.id, keyId: s.keyId }, data: { ciphertext: bytes(next.ciphertext), keyId: next.keyId } }))
        .count === 1,
  },
  {
    name: 'PersonConnection.ciphertext',
    stale: async (keyId, skip, take) =>
      (
        await prisma.personConnection.findMany({
          where: { ciphertext: { not: null }, keyId: { not: keyId } },
          select: { id: true, ciphertext: true, keyId: true },
          orderBy: { id: 'asc' },
          skip,
          take,
        })
      ).map((r) => ({ id: r.id, sealed: r.ciphertext!, keyId: r.keyId! })),
    replace: async (s, next) =>
      (await prisma.personConnection.updateMany({ where: { id: s.id, keyId: s.keyId }, data: { ciphertext: bytes(next.ciphertext), keyId: next.keyId } }))
        .count === 1,
  },
  {
    name: 'UpstreamAuthorization.ciphertext',
    stale: async (keyId, skip, take) =>
      (
        await prisma.upstreamAuthorization.findMany({
          where: { keyId: { not: keyId } },
          select: { stateHash: true, ciphertext: true, keyId: true },
          orderBy: { stateHash: 'asc' },
          skip,
          take,
        })
      ).map((r) => ({ id: r.stateHash, sealed: r.ciphertext, keyId: r.keyId })),
    replace: async (s, next) =>
      (
        await prisma.upstreamAuthorization.updateMany({
          where: { stateHash: s.id, keyId: s.keyId },
          data: { ciphertext: bytes(next.ciphertext), keyId: next.keyId },
        })
      ).count === 1,
  },
]
