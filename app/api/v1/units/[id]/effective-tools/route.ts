import { fleetRoutes } from '@/lib/api/fleet-routes'

export const dynamic = 'force-dynamic'
export const GET = fleetRoutes('Unit').effectiveTools
