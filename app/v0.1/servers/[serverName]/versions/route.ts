import { mcpRegistryRoutes } from '@/lib/api/mcp-registry-routes'
import { methodsNotAllowed } from '@/lib/http/method-not-allowed'

export const dynamic = 'force-dynamic'
export const GET = mcpRegistryRoutes.listServerVersions
export const { POST, PUT, PATCH, DELETE } = methodsNotAllowed(['GET'])
