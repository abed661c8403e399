import { discoveryRoutes } from '@/lib/api/discovery-routes'
import { methodsNotAllowed } from '@/lib/http/method-not-allowed'

export const dynamic = 'force-dynamic'
export const POST = discoveryRoutes.refreshLanguageTool
export const { GET, PUT, PATCH, DELETE } = methodsNotAllowed(['POST'])
