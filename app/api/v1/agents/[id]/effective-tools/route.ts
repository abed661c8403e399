import { fleetRoutes } from '@/lib/api/fleet-routes'
import { methodsNotAllowed } from '@/lib/http/method-not-allowed'

export const dynamic = 'force-dynamic'
export const GET = fleetRoutes('Agent').effectiveTools
export const { POST, PUT, PATCH, DELETE } = methodsNotAllowed(['GET'])
