import { authHandler } from '@/lib/sign-in/auth-handler'

export const dynamic = 'force-dynamic'
export const GET = authHandler
export const POST = authHandler
