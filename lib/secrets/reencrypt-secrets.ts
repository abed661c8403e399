// Re-seals every Secret that is not under the current key (after TOOLROOM_SECRET_KEY changed, with
// the old key in TOOLROOM_SECRET_KEYS_PREVIOUS). Values, names and generations stay; each re-seal is
// audited. One secret per transaction, guarded by its old key id, so it can run while the web
// serves and be run again after an interruption.
import 'server-only'
import type { AuditContext } from '@/lib/audit/audit-actor'
import { recordAuditEvent } from '@/lib/audit/record-audit-event'
import { prisma } from '@/lib/db'
import { currentKeyId, openSecretValues, sealSecretValues } from './encryption'

export interface ReencryptReport {
  keyId: string
  resealed: string[]
  current: number
  failed: { secret: string; error: string }[]
}

export async function reencryptSecrets(audit: AuditContext): Promise<ReencryptReport> {
  const keyId = currentKeyId()
  const report: ReencryptReport = { keyId, resealed: [], current: 0, failed: [] }
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
  return report
}
