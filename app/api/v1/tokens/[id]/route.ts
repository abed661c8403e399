import { accessRoutes } from '@/lib/api/access-routes'
import { methodsNotAllowed } from '@/lib/http/method-not-allowed'

export const dynamic = 'force-dynamic'
export const DELETE = accessRoutes.revokeToken
export const { GET, POST, PUT, PATCH } = methodsNotAllowed(['DELETE'])
