import { accessRoutes } from '@/lib/api/access-routes'

export const dynamic = 'force-dynamic'
export const PATCH = accessRoutes.changeUser
export const DELETE = accessRoutes.removeUser
