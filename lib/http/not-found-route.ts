import { AppError } from '@/lib/errors/app-error'
import { problemResponse } from '@/lib/errors/problem'

export async function notFoundRoute(request: Request): Promise<Response> {
  const path = new URL(request.url).pathname
  return problemResponse(new AppError('NOT_FOUND', `no API route ${request.method} ${path}; see /api/v1/openapi.json`), path)
}
