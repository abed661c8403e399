import { explainRoutes } from '@/lib/api/explain-routes'
import { methodsNotAllowed } from '@/lib/http/method-not-allowed'

export const dynamic = 'force-dynamic'
export const GET = explainRoutes.compare
export const { POST, PUT, PATCH, DELETE } = methodsNotAllowed(['GET'])
