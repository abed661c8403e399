import { approvalRoutes } from '@/lib/api/approval-routes'
import { methodsNotAllowed } from '@/lib/http/method-not-allowed'

export const dynamic = 'force-dynamic'
export const PATCH = approvalRoutes.updateWebhook
export const DELETE = approvalRoutes.deleteWebhook
export const { GET, POST, PUT } = methodsNotAllowed(['PATCH', 'DELETE'])
