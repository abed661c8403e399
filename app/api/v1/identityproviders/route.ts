import { resourceRoutes } from '@/lib/api/resource-routes'
import { methodsNotAllowed } from '@/lib/http/method-not-allowed'

export const dynamic = 'force-dynamic'
const routes = resourceRoutes('IdentityProvider')
export const GET = routes.list
export const POST = routes.create
export const { PUT, PATCH, DELETE } = methodsNotAllowed(['GET', 'POST'])
