import { gatewayRoutes } from '@/lib/api/gateway-routes'

export const dynamic = 'force-dynamic'
export const GET = gatewayRoutes.listCredentials
export const POST = gatewayRoutes.createCredential
