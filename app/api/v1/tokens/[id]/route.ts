import { accessRoutes } from '@/lib/api/access-routes'

export const dynamic = 'force-dynamic'
export const DELETE = accessRoutes.revokeToken
