import { oauthRoutes } from '@/lib/api/oauth-routes'
import { methodsNotAllowed } from '@/lib/http/method-not-allowed'

export const dynamic = 'force-dynamic'
export const PUT = oauthRoutes.setDynamicRegistration
export const { GET, POST, PATCH, DELETE } = methodsNotAllowed(['PUT'])
