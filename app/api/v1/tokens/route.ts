import { accessRoutes } from '@/lib/api/access-routes'

export const dynamic = 'force-dynamic'
export const GET = accessRoutes.listTokens
export const POST = accessRoutes.createToken
