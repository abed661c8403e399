import { notFoundRoute } from '@/lib/http/not-found-route'

// Anything under /api/v1 that no route matches still answers problem+json, not an HTML page.
export const GET = notFoundRoute
export const POST = notFoundRoute
export const PUT = notFoundRoute
export const PATCH = notFoundRoute
export const DELETE = notFoundRoute
