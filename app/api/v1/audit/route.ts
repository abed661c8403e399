import { auditRoutes } from '@/lib/api/audit-routes'
import { methodsNotAllowed } from '@/lib/http/method-not-allowed'

export const dynamic = 'force-dynamic'
export const GET = auditRoutes.list
export const { POST, PUT, PATCH, DELETE } = methodsNotAllowed(['GET'])
