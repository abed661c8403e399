import { personConnectionRoutes } from '@/lib/api/person-connection-routes'
import { methodsNotAllowed } from '@/lib/http/method-not-allowed'

export const dynamic = 'force-dynamic'
export const GET = personConnectionRoutes.list
export const { POST, PUT, PATCH, DELETE } = methodsNotAllowed(['GET'])
