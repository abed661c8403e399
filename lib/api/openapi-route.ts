import { route } from '@/lib/http/route'
import { openApiDocument } from './openapi'
import { openApiContract } from './registry-routes'

// Kept apart from registry-routes: the document imports every contract, which import those routes.
export const openApiRoute = route(openApiContract, async () => openApiDocument())
