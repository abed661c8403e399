import { handleMcpRequest } from '@/lib/gateway/mcp-handler'

export const dynamic = 'force-dynamic'
export const POST = handleMcpRequest
export const GET = handleMcpRequest
export const DELETE = handleMcpRequest
