import { agentCredentialRoutes } from '@/lib/api/agent-credential-routes'

export const dynamic = 'force-dynamic'
export const POST = agentCredentialRoutes.revokeCredential
