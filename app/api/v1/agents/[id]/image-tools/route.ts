import { fleetRoutes } from '@/lib/api/fleet-routes'

export const dynamic = 'force-dynamic'
const routes = fleetRoutes('Agent')
export const GET = routes.getImageTools
export const PUT = routes.putImageTools
