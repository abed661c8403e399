import { overviewRoute } from '@/lib/api/registry-routes'

export const dynamic = 'force-dynamic'
export const GET = overviewRoute
