import { accessRoutes } from '@/lib/api/access-routes'
import { methodsNotAllowed } from '@/lib/http/method-not-allowed'

export const dynamic = 'force-dynamic'
export const GET = accessRoutes.listTokens
export const POST = accessRoutes.createToken
export const { PUT, PATCH, DELETE } = methodsNotAllowed(['GET', 'POST'])
