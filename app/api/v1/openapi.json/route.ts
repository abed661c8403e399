import { openApiRoute } from '@/lib/api/openapi-route'

export const dynamic = 'force-dynamic'
export const GET = openApiRoute
