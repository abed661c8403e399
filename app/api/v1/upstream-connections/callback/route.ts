import { upstreamConnectionRoutes } from '@/lib/api/upstream-connection-routes'
import { methodsNotAllowed } from '@/lib/http/method-not-allowed'

export const dynamic = 'force-dynamic'
export const GET = upstreamConnectionRoutes.callback
export const { POST, PUT, PATCH, DELETE } = methodsNotAllowed(['GET'])
