import { discoveryRoutes } from '@/lib/api/discovery-routes'
import { methodsNotAllowed } from '@/lib/http/method-not-allowed'

export const dynamic = 'force-dynamic'
export const GET = discoveryRoutes.changes
export const { POST, PUT, PATCH, DELETE } = methodsNotAllowed(['GET'])
