import { applyRoute } from '@/lib/api/registry-routes'

export const dynamic = 'force-dynamic'
export const POST = applyRoute
