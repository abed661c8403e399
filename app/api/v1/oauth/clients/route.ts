import { oauthRoutes } from '@/lib/api/oauth-routes'
import { methodsNotAllowed } from '@/lib/http/method-not-allowed'

export const dynamic = 'force-dynamic'
export const GET = oauthRoutes.listClients
export const POST = oauthRoutes.createClient
export const { PUT, PATCH, DELETE } = methodsNotAllowed(['GET', 'POST'])
