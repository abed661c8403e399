import { approvalRoutes } from '@/lib/api/approval-routes'
import { methodsNotAllowed } from '@/lib/http/method-not-allowed'

export const dynamic = 'force-dynamic'
export const GET = approvalRoutes.webhooks
export const POST = approvalRoutes.createWebhook
export const { PUT, PATCH, DELETE } = methodsNotAllowed(['GET', 'POST'])
