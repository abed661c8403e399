import { overviewRoute } from '@/lib/api/registry-routes'
import { methodsNotAllowed } from '@/lib/http/method-not-allowed'

export const dynamic = 'force-dynamic'
export const GET = overviewRoute
export const { POST, PUT, PATCH, DELETE } = methodsNotAllowed(['GET'])
