// Every place outside Secret that holds a value sealed with TOOLROOM_SECRET_KEY (lib/secrets/encryption.ts),
// so a key change re-seals all of them (./reencrypt-secrets.ts): once the old key is dropped from
// TOOLROOM_SECRET_KEYS_PREVIOUS, anything still under it could never be opened again (a webhook that
// cannot sign, an OAuth client that cannot authenticate, an approved call that cannot run, a person's
// delegated token, or a held call's copy of it, that cannot be exchanged). A model
// that gains a sealed column is added here; tests/integration/secrets.test.ts checks that every
// sealed column of the schema is listed.
import 'server-only'
import { prisma } from '@/lib/db'
import { sql, type Tables, db } from '@/lib/sql'

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

// A key of several columns (GatewayIdempotency's) is one string for the report, split back to write.
const SEP = '\u0000'

/**
 * A sealed bytes column and the column naming the key it is under, with the row's key columns. Names
 * are checked against the generated table types, so a renamed column fails the build.
 */
interface SealedColumn<T extends keyof Tables> {
  table: T
  key: readonly (keyof Tables[T] & string)[]
  sealed: keyof Tables[T] & string
  keyId: keyof Tables[T] & string
}

/** One store over a sealed column: the same two statements for every table, identifiers from its descriptor. */
function columnStore<T extends keyof Tables>({ table, key, sealed, keyId }: SealedColumn<T>): SealedStore {
  const ref = (name: string) => sql.ref(name)
  const keyMatches = (id: string) => {
    const values = id.split(SEP)
    return sql.join(
      key.map((k, i) => sql`${ref(k)} = ${values[i]}`),
      sql` AND `,
    )
  }
  return {
    name: `${table}.${sealed}`,
    async stale(current, skip, take) {
      const { rows } = await sql<{ key: string[]; sealed: Uint8Array; keyId: string }>`
        SELECT ARRAY[${sql.join(key.map((k) => sql`${ref(k)}::text`))}] AS key, ${ref(sealed)} AS sealed, ${ref(keyId)} AS "keyId"
          FROM ${sql.table(table)}
         WHERE ${ref(sealed)} IS NOT NULL AND ${ref(keyId)} <> ${current}
         ORDER BY ${sql.join(key.map((k) => ref(k)))} OFFSET ${skip} LIMIT ${take}`.execute(db)
      return rows.map((r) => ({ id: r.key.join(SEP), sealed: r.sealed, keyId: r.keyId }))
    },
    async replace(stale, next) {
      const { rows } = await sql<{ one: number }>`
        UPDATE ${sql.table(table)} SET ${ref(sealed)} = ${new Uint8Array(next.ciphertext)}, ${ref(keyId)} = ${next.keyId}
         WHERE ${keyMatches(stale.id)} AND ${ref(keyId)} = ${stale.keyId}
        RETURNING 1 AS one`.execute(db)
      return rows.length === 1
    },
  }
}

const SEALED_COLUMNS: SealedStore[] = [
  columnStore({ table: 'WebhookEndpoint', key: ['id'], sealed: 'secretCiphertext', keyId: 'keyId' }),
  columnStore({ table: 'ApprovalRequest', key: ['id'], sealed: 'argsSealed', keyId: 'argsKeyId' }),
  columnStore({ table: 'ApprovalRequest', key: ['id'], sealed: 'resultSealed', keyId: 'resultKeyId' }),
  columnStore({ table: 'ApprovalRequest', key: ['id'], sealed: 'subjectSealed', keyId: 'subjectKeyId' }),
  columnStore({ table: 'GatewayIdempotency', key: ['agentId', 'toolId', 'key'], sealed: 'result', keyId: 'keyId' }),
  columnStore({ table: 'DelegatedAccessToken', key: ['id'], sealed: 'subjectCiphertext', keyId: 'subjectKeyId' }),
  columnStore({ table: 'UpstreamToken', key: ['key'], sealed: 'ciphertext', keyId: 'keyId' }),
  columnStore({ table: 'UpstreamConnection', key: ['id'], sealed: 'ciphertext', keyId: 'keyId' }),
  columnStore({ table: 'PersonConnection', key: ['id'], sealed: 'ciphertext', keyId: 'keyId' }),
  columnStore({ table: 'UpstreamAuthorization', key: ['stateHash'], sealed: 'ciphertext', keyId: 'keyId' }),
]

/** The OAuth provider stores a client secret as `keyId:base64` in one text column (lib/oauth/oauth-secrets.ts). */
function splitClientSecret(stored: string): { keyId: string; sealed: Uint8Array } | null {
  const at = stored.indexOf(':')
  return at < 1 ? null : { keyId: stored.slice(0, at), sealed: Buffer.from(stored.slice(at + 1), 'base64') }
}

/** The OAuth provider's client secrets: sealed, but as `keyId:base64` text in one column. */
const oauthClientSecrets: SealedStore = {
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
}

export const SEALED_STORES: readonly SealedStore[] = [oauthClientSecrets, ...SEALED_COLUMNS]
