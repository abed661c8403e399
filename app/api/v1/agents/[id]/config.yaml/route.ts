import { agentConfigRoute } from '@/lib/api/fleet-routes'
import { methodsNotAllowed } from '@/lib/http/method-not-allowed'

export const dynamic = 'force-dynamic'
export const GET = agentConfigRoute
export const { POST, PUT, PATCH, DELETE } = methodsNotAllowed(['GET'])
