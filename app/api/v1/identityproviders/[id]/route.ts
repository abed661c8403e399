import { resourceRoutes } from '@/lib/api/resource-routes'
import { methodsNotAllowed } from '@/lib/http/method-not-allowed'

export const dynamic = 'force-dynamic'
const routes = resourceRoutes('IdentityProvider')
export const GET = routes.get
export const PUT = routes.replace
export const DELETE = routes.remove
export const { POST, PATCH } = methodsNotAllowed(['GET', 'PUT', 'DELETE'])
