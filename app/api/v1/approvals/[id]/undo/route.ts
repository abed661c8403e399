import { approvalRoutes } from '@/lib/api/approval-routes'
import { methodsNotAllowed } from '@/lib/http/method-not-allowed'

export const dynamic = 'force-dynamic'
export const POST = approvalRoutes.undo
export const { GET, PUT, PATCH, DELETE } = methodsNotAllowed(['POST'])
