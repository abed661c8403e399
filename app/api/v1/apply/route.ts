import { applyRoute } from '@/lib/api/registry-routes'
import { methodsNotAllowed } from '@/lib/http/method-not-allowed'

export const dynamic = 'force-dynamic'
export const POST = applyRoute
export const { GET, PUT, PATCH, DELETE } = methodsNotAllowed(['POST'])
