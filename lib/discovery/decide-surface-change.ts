// An operator accepts or rejects a held change of an MCP server's tool definitions.
import 'server-only'
import type { AuditContext } from '@/lib/audit/audit-actor'
import { recordAuditEvent } from '@/lib/audit/record-audit-event'
import { prisma } from '@/lib/db'
import type { DiscoveredMcpTool } from '@/lib/effective-tools/catalog-tools'
import { AppError, notFound } from '@/lib/errors/app-error'
import { noteRegistryChange } from '@/lib/registry/registry-changes'
import { sqlIn } from '@/lib/sql'

export async function decideSurfaceChange(id: string, decision: 'accept' | 'reject', audit: AuditContext, comment?: string) {
  const actor = audit.actor.name
  const result = await prisma.$transaction(async (tx) => {
    // Lock the change so two operators deciding at once get one winner.
    const change = await sqlIn(tx)
      .selectFrom('SurfaceChange')
      .select(['id', 'status', 'subjectId', 'proposed', 'decidedBy'])
      .where('id', '=', id)
      .forUpdate()
      .executeTakeFirst()
    if (!change) throw notFound(`surface change "${id}"`)
    if (change.status !== 'pending_review')
      throw new AppError('CONFLICT', `this change is already ${change.status}${change.decidedBy ? ` (by ${change.decidedBy})` : ''}`)
    const server = await tx.languageTool.findUnique({ where: { id: change.subjectId } })
    if (!server && decision === 'accept') throw notFound('the server of this change')
    const current = (server?.toolSchemas ?? []) as unknown as DiscoveredMcpTool[]
    let accepted = current
    if (server && decision === 'accept') {
      const proposed = change.proposed as DiscoveredMcpTool[]
      // Accept the held definitions onto the current surface (later runs may have added or removed tools).
      const byName = new Map(proposed.map((t) => [t.name, t]))
      accepted = current.map((t) => byName.get(t.name) ?? t)
      await tx.languageTool.update({ where: { id: server.id }, data: { toolSchemas: accepted as object[] } })
    }
    const decided = await tx.surfaceChange.update({
      where: { id },
      data: { status: decision === 'accept' ? 'accepted' : 'rejected', decidedBy: actor, decidedAt: new Date(), comment: comment ?? null },
    })
    // A decision: the server's served tool definitions before and after it (a rejection keeps them).
    await recordAuditEvent(
      {
        ...audit,
        action: decision === 'accept' ? 'surface_change.accepted' : 'surface_change.rejected',
        kind: 'LanguageTool',
        namespace: server?.namespace,
        resource: server?.name,
        resourceId: change.subjectId,
        before: { toolSchemas: current },
        after: { toolSchemas: accepted },
        detail: { surfaceChangeId: id, ...(comment ? { comment } : {}) },
      },
      tx,
    )
    return decided
  })
  noteRegistryChange()
  return result
}
