// Liveness: answers as soon as the web process serves requests, without touching the database
// (readiness is /api/health). Also the framework's floor in the effective-tools benchmark.
import { methodsNotAllowed } from '@/lib/http/method-not-allowed'

export const dynamic = 'force-dynamic'

export function GET() {
  return Response.json({ status: 'live' })
}

export const { POST, PUT, PATCH, DELETE } = methodsNotAllowed(['GET'])
