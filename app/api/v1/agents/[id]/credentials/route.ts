import { agentCredentialRoutes } from '@/lib/api/agent-credential-routes'
import { methodsNotAllowed } from '@/lib/http/method-not-allowed'

export const dynamic = 'force-dynamic'
export const GET = agentCredentialRoutes.listCredentials
export const POST = agentCredentialRoutes.createCredential
export const { PUT, PATCH, DELETE } = methodsNotAllowed(['GET', 'POST'])
