import { accessRoutes } from '@/lib/api/access-routes'
import { methodsNotAllowed } from '@/lib/http/method-not-allowed'

export const dynamic = 'force-dynamic'
export const PATCH = accessRoutes.changeUser
export const DELETE = accessRoutes.removeUser
export const { GET, POST, PUT } = methodsNotAllowed(['PATCH', 'DELETE'])
