import { approvalRoutes } from '@/lib/api/approval-routes'

export const dynamic = 'force-dynamic'
export const POST = approvalRoutes.deny
