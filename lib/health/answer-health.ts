import 'server-only'
import { AppError } from '@/lib/errors/app-error'
import { problemResponse } from '@/lib/errors/problem'
import { checkHealth } from '@/lib/health/check-health'

/**
 * `GET /api/health`: 200 when the database answers, 503 when not. `?deep=1` asks through the database
 * client the routes read with, and so loads it: `npm start` asks that once ready is printed, so that a
 * person's first request does not wait for it (docs/design/data-layer.md, "The pools").
 */
export async function answerHealth(request: Request): Promise<Response> {
  const url = new URL(request.url)
  const values = url.searchParams.getAll('deep')
  const deep = values.length === 1 && values[0] === '1'
  if (values.length > 0 && !deep) {
    const message = 'deep takes 1 (ask through the database client too), once, or is left out'
    return problemResponse(new AppError('VALIDATION_FAILED', `invalid query: deep ${message}`, [{ field: 'deep', rule: 'enum', message }]), url.pathname)
  }
  const health = await checkHealth({ deep })
  return Response.json(health, { status: health.status === 'ok' ? 200 : 503 })
}
