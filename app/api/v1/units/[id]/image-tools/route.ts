import { fleetRoutes } from '@/lib/api/fleet-routes'

export const dynamic = 'force-dynamic'
const routes = fleetRoutes('Unit')
export const GET = routes.getImageTools
export const PUT = routes.putImageTools
