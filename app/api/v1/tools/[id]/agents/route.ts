import { explainRoutes } from '@/lib/api/explain-routes'
import { methodsNotAllowed } from '@/lib/http/method-not-allowed'

export const dynamic = 'force-dynamic'
export const GET = explainRoutes.agentsWithTool
export const { POST, PUT, PATCH, DELETE } = methodsNotAllowed(['GET'])
