import { checkHealth } from '@/lib/health/check-health'
import { methodsNotAllowed } from '@/lib/http/method-not-allowed'

export const dynamic = 'force-dynamic'

export async function GET() {
  const health = await checkHealth()
  return Response.json(health, { status: health.status === 'ok' ? 200 : 503 })
}
export const { POST, PUT, PATCH, DELETE } = methodsNotAllowed(['GET'])
