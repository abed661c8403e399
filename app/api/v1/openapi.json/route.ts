import { openApiRoute } from '@/lib/api/openapi-route'
import { methodsNotAllowed } from '@/lib/http/method-not-allowed'

export const dynamic = 'force-dynamic'
export const GET = openApiRoute
export const { POST, PUT, PATCH, DELETE } = methodsNotAllowed(['GET'])
