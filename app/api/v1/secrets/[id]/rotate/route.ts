import { secretRoutes } from '@/lib/api/secret-routes'
import { methodsNotAllowed } from '@/lib/http/method-not-allowed'

export const dynamic = 'force-dynamic'
export const POST = secretRoutes.rotate
export const { GET, PUT, PATCH, DELETE } = methodsNotAllowed(['POST'])
