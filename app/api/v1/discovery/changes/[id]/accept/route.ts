import { discoveryRoutes } from '@/lib/api/discovery-routes'

export const dynamic = 'force-dynamic'
export const POST = discoveryRoutes.accept
