import { auditRoutes } from '@/lib/api/audit-routes'

export const dynamic = 'force-dynamic'
export const GET = auditRoutes.list
