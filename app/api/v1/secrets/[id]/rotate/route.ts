import { secretRoutes } from '@/lib/api/secret-routes'

export const dynamic = 'force-dynamic'
export const POST = secretRoutes.rotate
