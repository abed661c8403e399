import { agentCredentialRoutes } from '@/lib/api/agent-credential-routes'

export const dynamic = 'force-dynamic'
export const GET = agentCredentialRoutes.listCredentials
export const POST = agentCredentialRoutes.createCredential
