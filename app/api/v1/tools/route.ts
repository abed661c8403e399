import { resourceRoutes } from '@/lib/api/resource-routes'

export const dynamic = 'force-dynamic'
const routes = resourceRoutes('Tool')
export const GET = routes.list
export const POST = routes.create
