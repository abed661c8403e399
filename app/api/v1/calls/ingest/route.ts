import { gatewayRoutes } from '@/lib/api/gateway-routes'
import { methodsNotAllowed } from '@/lib/http/method-not-allowed'

export const dynamic = 'force-dynamic'
export const POST = gatewayRoutes.ingest
export const { GET, PUT, PATCH, DELETE } = methodsNotAllowed(['POST'])
