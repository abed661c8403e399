import { searchRoutes } from '@/lib/api/search-routes'
import { methodsNotAllowed } from '@/lib/http/method-not-allowed'

export const dynamic = 'force-dynamic'
export const GET = searchRoutes.search
export const { POST, PUT, PATCH, DELETE } = methodsNotAllowed(['GET'])
