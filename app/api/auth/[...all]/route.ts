import { authHandler } from '@/lib/auth/auth-handler'

export const dynamic = 'force-dynamic'
export const GET = authHandler
export const POST = authHandler
