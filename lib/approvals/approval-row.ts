// A whole ApprovalRequest row as typed SQL returns it (`returningAll`, `selectAll`), typed as the
// Prisma model the rest of lib/approvals reads. Both types come from prisma/schema.prisma, and the
// values are the same (typed SQL runs through the Prisma client, which maps them: docs/design/data-layer.md);
// only the JSON columns differ in name, `unknown` in the typed SQL for Prisma's `JsonValue`.
import type { Selectable } from 'kysely'
import type { ApprovalRequest } from '@/lib/generated/prisma/client'
import type { Tables } from '@/lib/sql'

type ApprovalRequestRow = Selectable<Tables['ApprovalRequest']>

export function asApprovalRow(row: ApprovalRequestRow): ApprovalRequest {
  return row as ApprovalRequest
}
