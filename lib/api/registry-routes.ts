// Apply, the dashboard overview, and the OpenAPI document.
import { auditContextOf } from '@/lib/audit/audit-actor'
import type { RouteContract } from '@/lib/http/contract'
import { route } from '@/lib/http/route'
import { applyManifestText } from '@/lib/apply/apply-documents'
import { getOverview } from '@/lib/resources/get-overview'
import { z } from '@/lib/http/zod'
import { applyJsonBody, applyQuery, applyResultSchema, overviewSchema } from './schemas'

export const MAX_MANIFEST_BYTES = 5 * 1024 * 1024

export const applyContract = {
  method: 'POST',
  path: '/api/v1/apply',
  operationId: 'applyManifest',
  tags: ['Apply'],
  access: 'write',
  summary: 'Apply a multi-document YAML or JSON manifest, all or nothing; ?dryRun=true only validates',
  query: applyQuery,
  body: {
    text: true,
    contentTypes: ['application/yaml', 'application/x-yaml', 'text/yaml', 'application/json', 'text/plain'],
    description: 'Multi-document YAML (documents separated by ---), a JSON document, a JSON array of documents, or a Kubernetes List.',
    jsonSchema: applyJsonBody,
  },
  maxBodyBytes: MAX_MANIFEST_BYTES,
  response: applyResultSchema,
} satisfies RouteContract

export const applyRoute = route(applyContract, async (ctx) =>
  applyManifestText(ctx.body, { dryRun: ctx.query.dryRun, prune: ctx.query.prune, audit: auditContextOf(ctx), caller: ctx.actor }),
)

export const overviewContract = {
  method: 'GET',
  path: '/api/v1/overview',
  operationId: 'getOverview',
  tags: ['Overview'],
  access: 'read',
  summary: 'Fleet counts and tools by side-effect level, for the dashboard',
  response: overviewSchema,
} satisfies RouteContract

export const overviewRoute = route(overviewContract, async () => getOverview())

export const openApiContract = {
  method: 'GET',
  path: '/api/v1/openapi.json',
  operationId: 'getOpenApiDocument',
  tags: ['Meta'],
  access: 'public',
  summary: 'This document',
  response: z.record(z.string(), z.unknown()),
} satisfies RouteContract
