import { statsRoutes } from '@/lib/api/stats-routes'

export const dynamic = 'force-dynamic'
export const GET = statsRoutes.tool
