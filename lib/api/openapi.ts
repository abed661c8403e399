// The OpenAPI 3.1 document, generated from the route contracts and their zod schemas.
import { OpenApiGeneratorV31, OpenAPIRegistry } from '@asteasolutions/zod-to-openapi'
import { isTextBody, type RouteContract } from '@/lib/http/contract'
import { PROBLEM_CONTENT_TYPE } from '@/lib/http/problem'
import { YAML_CONTENT_TYPE } from '@/lib/http/yaml-answer'
import { ALL_CONTRACTS } from './contracts'
import { problemSchema } from './schemas'

let cached: object | null = null

function requestBody(body: NonNullable<RouteContract['body']>) {
  if (!isTextBody(body)) return { required: true, content: { 'application/json': { schema: body } } }
  const schemaOf = (type: string) => (type === 'application/json' && body.jsonSchema ? body.jsonSchema : { type: 'string' as const })
  return { description: body.description, required: true, content: Object.fromEntries(body.contentTypes.map((type) => [type, { schema: schemaOf(type) }])) }
}

export function openApiDocument(): object {
  if (cached) return cached
  const registry = new OpenAPIRegistry()
  const problem = { description: 'Problem details (RFC 9457)', content: { [PROBLEM_CONTENT_TYPE]: { schema: problemSchema } } }
  for (const c of ALL_CONTRACTS) {
    const success = c.successStatus ?? 200
    registry.registerPath({
      method: c.method.toLowerCase() as 'get',
      path: c.path,
      operationId: c.operationId,
      summary: c.summary,
      ...(c.accessRule ? { description: `${c.accessRule.message} (403 names the rule \`${c.accessRule.rule}\`).` } : {}),
      tags: c.tags,
      ...(c.access === 'public' ? { security: [] } : {}),
      request: {
        ...(c.params ? { params: c.params } : {}),
        ...(c.query ? { query: c.query } : {}),
        ...(c.body ? { body: requestBody(c.body) } : {}),
      },
      responses: {
        [success]:
          success === 204 || !c.response
            ? { description: 'Done' }
            : {
                description: 'OK',
                content: {
                  [c.responseContentType ?? 'application/json']: { schema: c.response },
                  ...(c.yamlAnswer ? { [YAML_CONTENT_TYPE]: { schema: c.response } } : {}),
                },
              },
        400: problem,
        ...(c.access === 'public' ? {} : { 401: problem, 403: problem }),
        ...(c.params ? { 404: problem } : {}),
        ...(c.body ? { 413: problem, 415: problem, 422: problem } : {}),
        500: problem,
      },
    })
  }
  registry.registerComponent('securitySchemes', 'bearerAuth', { type: 'http', scheme: 'bearer' })
  cached = new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'Toolroom API',
      version: '1.0.0',
      description: 'The system of record for the tools AI agents may call. Errors are application/problem+json; lists use cursor pagination (pass nextCursor as ?cursor=).',
    },
    servers: [{ url: '/' }],
    security: [{ bearerAuth: [] }],
  })
  return cached
}
