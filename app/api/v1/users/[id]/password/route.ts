import { accessRoutes } from '@/lib/api/access-routes'
import { methodsNotAllowed } from '@/lib/http/method-not-allowed'

export const dynamic = 'force-dynamic'
export const POST = accessRoutes.resetUserPassword
export const { GET, PUT, PATCH, DELETE } = methodsNotAllowed(['POST'])
