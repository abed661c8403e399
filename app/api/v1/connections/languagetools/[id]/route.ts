import { personConnectionRoutes } from '@/lib/api/person-connection-routes'
import { methodsNotAllowed } from '@/lib/http/method-not-allowed'

export const dynamic = 'force-dynamic'
export const POST = personConnectionRoutes.start
export const DELETE = personConnectionRoutes.disconnect
export const { GET, PUT, PATCH } = methodsNotAllowed(['POST', 'DELETE'])
