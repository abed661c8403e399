// Someone asks for a discovery run now (POST …/{id}/refresh): which job introspects the subject (an
// MCP server's, or an agent's or unit's image, which a unit must run itself), queued as a manual run,
// and the request recorded in the audit log.
import type { AuditContext } from '@/lib/audit/audit-actor'
import { recordAuditEvent } from '@/lib/audit/record-audit-event'
import { AppError } from '@/lib/errors/app-error'
import { getRow } from '@/lib/resources/resource-store'
import { imageEndpointOf } from './run-image-discovery'
import { enqueueDiscoveries } from './schedule-discovery'

export async function requestRefresh(kind: 'Agent' | 'Unit' | 'LanguageTool', idOrName: string, namespace: string | undefined, audit: AuditContext) {
  const row = await getRow(kind, idOrName, namespace)
  if (kind === 'LanguageTool') await enqueueDiscoveries([{ job: 'mcp', id: row.id, trigger: 'manual' }])
  else {
    if (!imageEndpointOf(kind, row))
      throw new AppError('VALIDATION_FAILED', `unit "${row.name}" runs no image of its own (spec.image and spec.endpoint)`, [
        { field: 'spec.endpoint', rule: 'required', message: 'is required to introspect a unit image' },
      ])
    await enqueueDiscoveries([{ job: 'image', kind, id: row.id, trigger: 'manual' }])
  }
  await recordAuditEvent({ ...audit, action: 'discovery.refresh_requested', kind, namespace: row.namespace, resource: row.name, resourceId: row.id })
  return { queued: true as const, subject: { kind, id: row.id, name: row.name, namespace: row.namespace } }
}
