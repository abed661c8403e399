import { gatewayRoutes } from '@/lib/api/gateway-routes'

export const dynamic = 'force-dynamic'
export const POST = gatewayRoutes.callTool
