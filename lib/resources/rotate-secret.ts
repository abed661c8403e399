// Rotating a Secret's values in place: same name, id, labels and references; new values sealed
// under the current key, generation bumped, the rotation audited (key names and key ids only). A
// resource write like resource-store's, and like them followed by a tool status refresh, so it lives
// here, above lib/secrets (which only seals and opens values).
import 'server-only'
import type { AuditContext } from '@/lib/audit/audit-actor'
import { auditDocument } from '@/lib/audit/audit-document'
import { recordAuditEvent } from '@/lib/audit/record-audit-event'
import { prisma } from '@/lib/db'
import { AppError } from '@/lib/errors/app-error'
import { secretValues, type SecretSpec } from '@/lib/manifests/specs/secret'
import { getRow } from './resource-store'
import { toResourceView } from './resource-view'
import { sealSecretValues } from '@/lib/secrets/encryption'
import { refreshToolStatusAfter } from '@/lib/tools/refresh-tool-status'
import { sqlIn } from '@/lib/sql'

export async function rotateSecret(idOrName: string, namespace: string | undefined, values: Pick<SecretSpec, 'stringData' | 'data'>, audit: AuditContext) {
  const plain = secretValues({ type: 'opaque', ...values })
  if (Object.keys(plain).length === 0)
    throw new AppError('VALIDATION_FAILED', 'a rotation needs at least one value in stringData or data', [
      { field: 'stringData', rule: 'required', message: 'give the new values in stringData or data' },
    ])
  const sealed = sealSecretValues(plain)
  const row = await prisma.$transaction(async (tx) => {
    // Lock the row: two rotations at once are applied one after the other, each audited.
    const current = await getRow('Secret', idOrName, namespace, tx)
    await sqlIn(tx).selectFrom('Secret').select('id').where('id', '=', current.id).forUpdate().execute()
    const old = await tx.secret.findUniqueOrThrow({ where: { id: current.id }, select: { keyId: true, spec: true } })
    const spec = { type: (old.spec as { type: string }).type, keys: Object.keys(plain).sort() }
    const updated = await tx.secret.update({
      where: { id: current.id },
      data: { spec, ...sealed, generation: { increment: 1 }, updatedAt: new Date() },
      omit: { ciphertext: true, keyId: true },
    })
    await recordAuditEvent(
      {
        ...audit,
        action: 'secret.rotated',
        kind: 'Secret',
        namespace: updated.namespace,
        resource: updated.name,
        resourceId: updated.id,
        before: auditDocument('Secret', { ...current, spec: old.spec }),
        after: auditDocument('Secret', updated),
        detail: { fromKeyId: old.keyId, keyId: sealed.keyId, generation: updated.generation },
      },
      tx,
    )
    return updated
  })
  // A rotation can add or drop keys a Tool's secretRef names.
  await refreshToolStatusAfter([{ kind: 'Secret', namespace: row.namespace, name: row.name }])
  return toResourceView('Secret', row as never)
}
