import { oauthRoutes } from '@/lib/api/oauth-routes'
import { methodsNotAllowed } from '@/lib/http/method-not-allowed'

export const dynamic = 'force-dynamic'
export const GET = oauthRoutes.protectedResourceMcp
export const { POST, PUT, PATCH, DELETE } = methodsNotAllowed(['GET'])
