// The OpenAPI 3.1 document, generated from the route contracts and their zod schemas, with each
// operation's description and example (operation-docs.ts). Linted with Redocly in the tests
// (redocly.yaml): 0 errors, 0 warnings.
import { OpenApiGeneratorV31, OpenAPIRegistry } from '@asteasolutions/zod-to-openapi'
import { isTextBody, type RouteContract } from '@/lib/http/contract'
import { PROBLEM_CONTENT_TYPE } from '@/lib/errors/problem'
import { problemSchema } from '@/lib/http/problem-schema'
import { YAML_CONTENT_TYPE } from '@/lib/http/yaml-answer'
import { z } from '@/lib/http/zod'
import { ALL_CONTRACTS } from './contracts'
import { operationDoc } from './operation-docs'

/** Every tag an operation carries, declared once with what it groups (the order is the reader's). */
export const TAGS: { name: string; description: string }[] = [
  { name: 'Apply', description: 'Manifests in, all or nothing: field-level changes, the impact on agents of a dry run, prune by label selector.' },
  { name: 'Tool', description: 'Tool resources (the joch.dev Tool spec): REST, MCP, function and OS tools with their schemas, side effects and safety rules.' },
  { name: 'LanguageTool', description: 'MCP tool servers (the langop.io LanguageTool, alias MCPServer) that Toolroom discovers and forwards calls to.' },
  { name: 'Connector', description: 'Connectors: a slug that reserves a tool namespace and offers Tools and an MCP server under it.' },
  { name: 'Unit', description: 'Units: trees of teams whose connector bindings, grants and toggles flow down to sub-units and agents.' },
  { name: 'Agent', description: 'Agents: their bindings, image, effective tool set with provenance and runtime config.yaml.' },
  { name: 'Secret', description: 'Secrets, sealed at rest and never returned: answers show the type and key names only. Admins change them.' },
  { name: 'SideEffectPolicy', description: 'Defaults per side-effect level: approval, logging, rate limits and approval expiry. Admins change them.' },
  {
    name: 'Policy',
    description:
      'Rules on the arguments, the agent and the person (CEL conditions) layered on Tool safety: they deny, require approval, lower a rate limit or redact more, never the reverse.',
  },
  {
    name: 'Connections',
    description:
      "A signed-in person's own connected accounts: upstream MCP servers whose calls use each person's own account (auth.oauth2.connect: perPerson), connected once from the person's Connections page.",
  },
  {
    name: 'IdentityProvider',
    description:
      "Identity providers whose people agents may act for (RFC 8693 token exchange at Toolroom's token endpoint): issuer, JWKS, audiences and claims. Admins change them.",
  },
  { name: 'Discovery', description: 'What agent images and MCP servers expose: runs on demand and on schedule, surface changes and their review.' },
  { name: 'Approvals', description: 'The approval queue for risky calls, decisions one by one or in bulk, and the signed webhooks that announce them.' },
  { name: 'Gateway', description: "Agents' side outside /mcp: the REST form of tools/call, ingest of calls agents ran themselves, and their credentials." },
  { name: 'Statistics', description: 'Seven days of calls and failures per resolved tool, agent, unit and namespace, and the recorded calls themselves.' },
  { name: 'Audit', description: 'The append-only audit log: every change with its document before and after, decisions, sign-ins and token actions.' },
  { name: 'Access', description: 'Sign-in and sessions, people and their roles, and API tokens with scopes.' },
  {
    name: 'MCP authorization',
    description:
      'OAuth 2.1 for MCP clients: protected-resource and authorization-server metadata, clients bound to one agent each, dynamic registration where an admin allows it, consent.',
  },
  {
    name: 'MCP Registry',
    description:
      "The MCP Registry API's reads (/v0.1, server.json): every LanguageTool with the gateway as its remote and its live tools, their levels and surface version under _meta.",
  },
  { name: 'Search', description: "The portal's global search across resources, waiting approvals and recent calls." },
  { name: 'Overview', description: 'Fleet counts for the dashboard.' },
  { name: 'Meta', description: 'This document.' },
]

/** Who answers for the API. The repository has no LICENSE file yet: the name says so until it has one. */
const LICENSE = { name: 'Proprietary (no licence granted yet)', identifier: 'LicenseRef-Proprietary' }
const CONTACT = { name: 'Toolroom maintainers (see SECURITY.md to report a vulnerability)' }

let cached: object | null = null

// Conditional reads (contract `etag`; docs/design/resource-model.md#conditional-reads).
const IF_NONE_MATCH = z.object({
  'If-None-Match': z.string().optional().openapi({
    description: 'ETags from earlier answers (or `*`): when one is current the answer is 304 with no body. A malformed value is ignored.',
    example: 'W/"5J0bYkq3n8cX1gYb1m2Hc9Qe0aZ"',
  }),
})
const VALIDATOR_HEADERS = {
  ETag: { description: 'Weak validator of this answer, derived from the registry state; send it back as If-None-Match.', schema: { type: 'string' as const } },
  'Cache-Control': { description: '`private, no-cache`: keep it, but revalidate before each use.', schema: { type: 'string' as const } },
}

function requestBody(body: NonNullable<RouteContract['body']>) {
  if (!isTextBody(body)) return { required: true, content: { 'application/json': { schema: body } } }
  const schemaOf = (type: string) => (type === 'application/json' && body.jsonSchema ? body.jsonSchema : { type: 'string' as const })
  return { description: body.description, required: true, content: Object.fromEntries(body.contentTypes.map((type) => [type, { schema: schemaOf(type) }])) }
}

export function openApiDocument(): object {
  if (cached) return cached
  const registry = new OpenAPIRegistry()
  const sharedProblem = { description: 'Problem details (RFC 9457)', content: { [PROBLEM_CONTENT_TYPE]: { schema: problemSchema } } }
  for (const c of ALL_CONTRACTS) {
    const success = c.successStatus ?? 200
    const problem = c.problem ? { description: 'Problem details (RFC 9457)', content: { [PROBLEM_CONTENT_TYPE]: { schema: c.problem } } } : sharedProblem
    registry.registerPath({
      method: c.method.toLowerCase() as 'get',
      path: c.path,
      operationId: c.operationId,
      summary: c.summary,
      description: [operationDoc(c.operationId)?.description, c.accessRule ? `${c.accessRule.message} (403 names the rule \`${c.accessRule.rule}\`).` : null]
        .filter(Boolean)
        .join(' '),
      tags: c.tags,
      ...(c.access === 'public' ? { security: [] } : {}),
      // Who may call it, from the contract: the fuzzer's access oracle reads it (scripts/fuzz/oracles.mjs).
      'x-toolroom-access': c.access,
      request: {
        ...(c.params ? { params: c.params } : {}),
        ...(c.query ? { query: c.query } : {}),
        ...(c.body ? { body: requestBody(c.body) } : {}),
        ...(c.etag ? { headers: IF_NONE_MATCH } : {}),
      },
      responses: {
        [success]:
          success === 204 || !c.response
            ? { description: 'Done' }
            : {
                description: 'OK',
                ...(c.etag ? { headers: VALIDATOR_HEADERS } : {}),
                content: {
                  [c.responseContentType ?? 'application/json']: { schema: c.response },
                  ...(c.yamlAnswer ? { [YAML_CONTENT_TYPE]: { schema: c.response } } : {}),
                },
              },
        ...(c.etag ? { 304: { description: 'Not Modified: the tag sent in If-None-Match is still current (no body)', headers: VALIDATOR_HEADERS } } : {}),
        400: problem,
        ...(c.access === 'public' ? {} : { 401: problem, 403: problem }),
        ...(c.params ? { 404: problem } : {}),
        ...(c.body ? { 413: problem, 415: problem, 422: problem } : {}),
        500: problem,
      },
    })
  }
  registry.registerComponent('securitySchemes', 'bearerAuth', { type: 'http', scheme: 'bearer' })
  const document = new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'Toolroom API',
      version: '1.0.0',
      description:
        'The system of record for the tools AI agents may call. Send `Authorization: Bearer trk_…` (an API token) or a session cookie; agents send their gateway credential `tra_…`. Errors are application/problem+json naming the field and rule; lists use cursor pagination (pass nextCursor as ?cursor=).',
      license: LICENSE,
      contact: CONTACT,
    },
    servers: [{ url: '/' }],
    security: [{ bearerAuth: [] }],
    tags: TAGS,
  })
  addExamples(document as unknown as OpenApiDocument)
  cached = document
  return cached
}

interface MediaType {
  example?: unknown
}
interface Operation {
  operationId: string
  parameters?: { name: string; example?: unknown }[]
  requestBody?: { content: Record<string, MediaType> }
  responses: Record<string, { content?: Record<string, MediaType> }>
}
type OpenApiDocument = { paths: Record<string, Record<string, Operation>> }

/** Each operation's example goes on its JSON (or only) request body, its success answer and its parameters. */
function addExamples(document: OpenApiDocument) {
  for (const operations of Object.values(document.paths))
    for (const operation of Object.values(operations)) {
      const doc = operationDoc(operation.operationId)
      if (!doc) continue
      const first = (content: Record<string, MediaType> | undefined) => (content ? (content['application/json'] ?? Object.values(content)[0]) : undefined)
      if (doc.request !== undefined) {
        const media = first(operation.requestBody?.content)
        if (media) media.example = doc.request
      }
      if (doc.response !== undefined) {
        const success = Object.keys(operation.responses).find((status) => status.startsWith('2'))
        const media = success ? first(operation.responses[success].content) : undefined
        if (media) media.example = doc.response
      }
      for (const parameter of operation.parameters ?? [])
        if (doc.parameters && parameter.name in doc.parameters) parameter.example = doc.parameters[parameter.name]
    }
}
