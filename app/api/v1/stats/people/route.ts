import { statsRoutes } from '@/lib/api/stats-routes'
import { methodsNotAllowed } from '@/lib/http/method-not-allowed'

export const dynamic = 'force-dynamic'
export const GET = statsRoutes.byPerson
export const { POST, PUT, PATCH, DELETE } = methodsNotAllowed(['GET'])
