import { discoveryRoutes } from '@/lib/api/discovery-routes'

export const dynamic = 'force-dynamic'
export const GET = discoveryRoutes.runs
