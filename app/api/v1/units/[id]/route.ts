import { resourceRoutes } from '@/lib/api/resource-routes'

export const dynamic = 'force-dynamic'
const routes = resourceRoutes('Unit')
export const GET = routes.get
export const PUT = routes.replace
export const DELETE = routes.remove
