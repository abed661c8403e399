import { statsRoutes } from '@/lib/api/stats-routes'
import { methodsNotAllowed } from '@/lib/http/method-not-allowed'

export const dynamic = 'force-dynamic'
export const GET = statsRoutes.toolFailures
export const { POST, PUT, PATCH, DELETE } = methodsNotAllowed(['GET'])
