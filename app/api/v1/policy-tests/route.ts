import { policyRoutes } from '@/lib/api/policy-routes'
import { methodsNotAllowed } from '@/lib/http/method-not-allowed'

export const dynamic = 'force-dynamic'
export const POST = policyRoutes.test
export const { GET, PUT, PATCH, DELETE } = methodsNotAllowed(['POST'])
