import { upstreamConnectionRoutes } from '@/lib/api/upstream-connection-routes'
import { methodsNotAllowed } from '@/lib/http/method-not-allowed'

export const dynamic = 'force-dynamic'
export const GET = upstreamConnectionRoutes.get
export const POST = upstreamConnectionRoutes.start
export const DELETE = upstreamConnectionRoutes.disconnect
export const { PUT, PATCH } = methodsNotAllowed(['GET', 'POST', 'DELETE'])
