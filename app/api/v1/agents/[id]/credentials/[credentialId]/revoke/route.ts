import { agentCredentialRoutes } from '@/lib/api/agent-credential-routes'
import { methodsNotAllowed } from '@/lib/http/method-not-allowed'

export const dynamic = 'force-dynamic'
export const POST = agentCredentialRoutes.revokeCredential
export const { GET, PUT, PATCH, DELETE } = methodsNotAllowed(['POST'])
