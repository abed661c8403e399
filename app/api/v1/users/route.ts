import { accessRoutes } from '@/lib/api/access-routes'

export const dynamic = 'force-dynamic'
export const GET = accessRoutes.listUsers
export const POST = accessRoutes.createUser
