import { explainRoutes } from '@/lib/api/explain-routes'
import { methodsNotAllowed } from '@/lib/http/method-not-allowed'

export const dynamic = 'force-dynamic'
export const POST = explainRoutes.explain
export const { GET, PUT, PATCH, DELETE } = methodsNotAllowed(['POST'])
