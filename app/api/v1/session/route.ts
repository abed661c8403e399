import { accessRoutes } from '@/lib/api/access-routes'
import { methodsNotAllowed } from '@/lib/http/method-not-allowed'

export const dynamic = 'force-dynamic'
export const POST = accessRoutes.signIn
export const GET = accessRoutes.whoAmI
export const DELETE = accessRoutes.signOut
export const { PUT, PATCH } = methodsNotAllowed(['GET', 'POST', 'DELETE'])
