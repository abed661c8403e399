import { resourceRoutes } from '@/lib/api/resource-routes'

export const dynamic = 'force-dynamic'
const routes = resourceRoutes('Connector')
export const GET = routes.list
export const POST = routes.create
