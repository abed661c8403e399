import { approvalRoutes } from '@/lib/api/approval-routes'
import { methodsNotAllowed } from '@/lib/http/method-not-allowed'

export const dynamic = 'force-dynamic'
export const GET = approvalRoutes.list
export const { POST, PUT, PATCH, DELETE } = methodsNotAllowed(['GET'])
