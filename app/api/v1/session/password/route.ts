import { accessRoutes } from '@/lib/api/access-routes'
import { methodsNotAllowed } from '@/lib/http/method-not-allowed'

export const dynamic = 'force-dynamic'
export const PUT = accessRoutes.changeOwnPassword
export const { GET, POST, PATCH, DELETE } = methodsNotAllowed(['PUT'])
