// An operator (or CI) uploads an image's tools manifest for a subject without an /a2a/tools listener.
import 'server-only'
import type { AuditContext } from '@/lib/audit/audit-actor'
import { recordAuditEvent } from '@/lib/audit/record-audit-event'
import { prisma } from '@/lib/db'
import { AppError } from '@/lib/errors/app-error'
import { imageDigestOf } from '@/lib/manifests/specs/fleet'
import { changeOfResources } from '@/lib/registry/change-subjects'
import { noteRegistryChange } from '@/lib/registry/registry-changes'
import { getRow } from '@/lib/resources/resource-store'
import { validateImageTools } from './validate-image-tools'

export async function setImageTools(
  kind: 'Agent' | 'Unit',
  idOrName: string,
  namespace: string | undefined,
  upload: { digest?: string; tools: unknown[] },
  audit: AuditContext,
) {
  const row = await getRow(kind, idOrName, namespace)
  const imageDigest = imageDigestOf((row.spec as { image?: string }).image)
  const digest = upload.digest ?? imageDigest
  if (!digest)
    throw new AppError('VALIDATION_FAILED', 'the image digest is unknown: pin spec.image with @sha256:<digest> or send "digest"', [
      { field: 'digest', rule: 'required', message: `is required because ${kind.toLowerCase()} "${row.name}" has no @sha256 digest in spec.image` },
    ])
  if (imageDigest && upload.digest && upload.digest !== imageDigest)
    throw new AppError('VALIDATION_FAILED', `the manifest is for ${upload.digest}, but the ${kind.toLowerCase()} runs ${imageDigest}`, [
      { field: 'digest', rule: 'mismatch', message: `must equal the digest in spec.image (${imageDigest})` },
    ])
  const slugs = new Set((await prisma.connector.findMany({ select: { name: true } })).map((c) => c.name))
  const verdict = validateImageTools(upload.tools, slugs)
  if (verdict.errors.length > 0)
    throw new AppError(
      'VALIDATION_FAILED',
      `${verdict.errors.length} invalid tool entr${verdict.errors.length === 1 ? 'y' : 'ies'}; nothing was stored`,
      verdict.errors,
    )
  const data = { imageTools: verdict.tools as object[], imageDigest: digest, imageToolsSource: 'upload', imageToolsUpdatedAt: new Date() }
  const updated = await prisma.$transaction(async (tx) => {
    const stored = kind === 'Agent' ? await tx.agent.update({ where: { id: row.id }, data }) : await tx.unit.update({ where: { id: row.id }, data })
    await recordAuditEvent(
      {
        ...audit,
        action: 'image_tools.uploaded',
        kind,
        namespace: row.namespace,
        resource: row.name,
        resourceId: row.id,
        before: imageToolsOf(row as never),
        after: imageToolsOf(stored),
      },
      tx,
    )
    return stored
  })
  noteRegistryChange(changeOfResources([{ kind, id: row.id, namespace: row.namespace, name: row.name }]))
  return imageToolsOf(updated)
}

export function imageToolsOf(row: { imageTools: unknown; imageDigest: string | null; imageToolsSource: string | null; imageToolsUpdatedAt: Date | null }) {
  return {
    digest: row.imageDigest,
    source: row.imageToolsSource,
    updatedAt: row.imageToolsUpdatedAt?.toISOString() ?? null,
    tools: row.imageTools as { name: string; description: string; inputSchema: unknown }[],
  }
}
