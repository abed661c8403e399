import { oauthRoutes } from '@/lib/api/oauth-routes'
import { methodsNotAllowed } from '@/lib/http/method-not-allowed'

export const dynamic = 'force-dynamic'
export const POST = oauthRoutes.consent
export const { GET, PUT, PATCH, DELETE } = methodsNotAllowed(['POST'])
