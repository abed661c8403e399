import { fleetRoutes } from '@/lib/api/fleet-routes'
import { methodsNotAllowed } from '@/lib/http/method-not-allowed'

export const dynamic = 'force-dynamic'
const routes = fleetRoutes('Unit')
export const GET = routes.getImageTools
export const PUT = routes.putImageTools
export const { POST, PATCH, DELETE } = methodsNotAllowed(['GET', 'PUT'])
