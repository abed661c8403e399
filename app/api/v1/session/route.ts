import { accessRoutes } from '@/lib/api/access-routes'

export const dynamic = 'force-dynamic'
export const POST = accessRoutes.signIn
export const GET = accessRoutes.whoAmI
export const DELETE = accessRoutes.signOut
