import { agentCredentialRoutes } from '@/lib/api/agent-credential-routes'
import { methodsNotAllowed } from '@/lib/http/method-not-allowed'

export const dynamic = 'force-dynamic'
export const GET = agentCredentialRoutes.listAllCredentials
export const { POST, PUT, PATCH, DELETE } = methodsNotAllowed(['GET'])
