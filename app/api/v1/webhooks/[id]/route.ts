import { approvalRoutes } from '@/lib/api/approval-routes'

export const dynamic = 'force-dynamic'
export const PATCH = approvalRoutes.updateWebhook
export const DELETE = approvalRoutes.deleteWebhook
