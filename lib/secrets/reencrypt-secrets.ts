// Re-seals every sealed value that is not under the current key (after TOOLROOM_SECRET_KEY changed, with
// the old key in TOOLROOM_SECRET_KEYS_PREVIOUS): Secrets, and every other sealed column
// (./sealed-stores.ts: webhook signing secrets, OAuth client secrets, approvals' arguments and answers,
// idempotent answers, upstream tokens and connections). Values, names and generations stay. Each
// Secret's re-seal is audited, and each other store's count once. One value per write, guarded by its
// old key id, so it can run while the web serves and be run again after an interruption.
import 'server-only'
import type { AuditContext } from '@/lib/audit/audit-actor'
import { recordAuditEvent } from '@/lib/audit/record-audit-event'
import { prisma } from '@/lib/db'
import { currentKeyId, openSecretValues, sealSecretValues } from './encryption'
import { SEALED_STORES, type SealedStore } from './sealed-stores'

export interface ReencryptReport {
  keyId: string
  resealed: string[]
  current: number
  /** Sealed values outside Secrets re-sealed, by `Model.column`. */
  others: Record<string, number>
  failed: { secret: string; error: string }[]
}

const PAGE = 500

export async function reencryptSecrets(audit: AuditContext): Promise<ReencryptReport> {
  const keyId = currentKeyId()
  const report: ReencryptReport = { keyId, resealed: [], current: 0, others: {}, failed: [] }
  const stale = await prisma.secret.findMany({ where: { keyId: { not: keyId } }, select: { id: true, namespace: true, name: true } })
  report.current = await prisma.secret.count({ where: { keyId } })
  for (const { id, namespace, name } of stale) {
    const label = `${namespace}/${name}`
    try {
      const done = await prisma.$transaction(async (tx) => {
        const row = await tx.secret.findUnique({ where: { id } })
        if (!row || row.keyId === keyId) return false
        const sealed = sealSecretValues(openSecretValues(row.ciphertext, row.keyId))
        const { count } = await tx.secret.updateMany({ where: { id, keyId: row.keyId }, data: sealed })
        if (count === 0) return false
        await recordAuditEvent(
          { ...audit, action: 'secret.reencrypted', kind: 'Secret', namespace, resource: name, resourceId: id, detail: { fromKeyId: row.keyId, keyId } },
          tx,
        )
        return true
      })
      if (done) report.resealed.push(label)
    } catch (error) {
      report.failed.push({ secret: label, error: (error as Error).message })
    }
  }
  for (const store of SEALED_STORES) {
    const count = await resealStore(store, keyId, report)
    if (count === 0) continue
    report.others[store.name] = count
    await recordAuditEvent({ ...audit, action: 'sealed.reencrypted', kind: store.name, resource: store.name, detail: { count, keyId } })
  }
  return report
}

/** Re-seals a store's stale values page by page; those that fail stay stale and are stepped over. */
async function resealStore(store: SealedStore, keyId: string, report: ReencryptReport): Promise<number> {
  let resealed = 0
  let failedHere = 0
  for (;;) {
    const page = await store.stale(keyId, failedHere, PAGE)
    for (const value of page) {
      try {
        // A value changed meanwhile (written again under the current key, deleted) is left as it is now.
        if (await store.replace(value, sealSecretValues(openSecretValues(value.sealed, value.keyId)))) resealed++
      } catch (error) {
        failedHere++
        report.failed.push({ secret: `${store.name} ${value.id.replaceAll('\u0000', '/')}`, error: (error as Error).message })
      }
    }
    if (page.length < PAGE) return resealed
  }
}
