import { deploymentRoutes } from '@/lib/api/deployment-routes'
import { methodsNotAllowed } from '@/lib/http/method-not-allowed'

export const dynamic = 'force-dynamic'
export const GET = deploymentRoutes.renderLanguageTool
export const { POST, PUT, PATCH, DELETE } = methodsNotAllowed(['GET'])
