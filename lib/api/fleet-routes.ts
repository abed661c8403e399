// Routes about an agent's or unit's tools: the effective set with exclusions, the runtime config,
// and the image's tools manifest.
import { z } from '@/lib/http/zod'
import type { RouteContract } from '@/lib/http/contract'
import { publicOrigin } from '@/lib/request-origin/public-origin'
import { plainReadTag, route } from '@/lib/http/route'
import { auditContextOf } from '@/lib/audit/audit-actor'
import { effectiveSetAnswer } from '@/lib/effective-tools/subject-answers'
import { agentConfigYaml } from '@/lib/effective-tools/agent-config'
import { watchAgentConfig, watchEffectiveSet } from '@/lib/effective-tools/watch-effective-set'
import { imageToolsOf, setImageTools } from '@/lib/image-tools/set-image-tools'
import { getRow } from '@/lib/resources/resource-store'
import { effectiveToolsAnswer, idParams, imageToolsAnswer, imageToolsUpload } from './schemas'

/** `?watch=1` turns a read into a stream of its changes (docs/design/resource-model.md#watch). */
function watchQuery(what: string) {
  return {
    watch: z
      .enum(['1', 'true'])
      .optional()
      .openapi({
        description: `Stream the ${what} instead (\`text/event-stream\`): an \`ADDED\` event with the current ${what}, then a \`MODIFIED\` event each time it changes, \`DELETED\` when the agent or unit is removed. Each event's data is \`{type, resourceVersion, object}\`, \`object\` being what this address answers, and the event id is the \`resourceVersion\`.`,
      }),
    resourceVersion: z
      .string()
      .max(64)
      .optional()
      .openapi({
        description: `With \`watch\`: the last \`resourceVersion\` seen; the current ${what} is sent first only if it differs (the Last-Event-ID header does the same).`,
      }),
    events: z
      .enum(['objects', 'notices'])
      .optional()
      .openapi({
        description: `With \`watch\`: what each event carries. \`objects\` (the default): \`{type, resourceVersion, object}\`. \`notices\`: \`{type, resourceVersion, etag}\` without the ${what}, \`etag\` being the tag a plain GET of this address (without the watch's parameters) carries at the time of the event, or null when none can be given; a GET sent after the event answers that ${what} or a newer one, and a GET with \`If-None-Match\` set to \`etag\` answers 304 when the ${what} held is already it.`,
      }),
  }
}

/** The query parameters that mean something only to a watch: left out of the tag its notices carry. */
const WATCH_PARAMS = ['watch', 'resourceVersion', 'events'] as const

const effectiveQuery = z.strictObject({
  namespace: z.string().max(63).optional(),
  include: z.enum(['excluded']).optional().openapi({ description: '`excluded` adds the shadowed and denied entries with their reasons.' }),
  ...watchQuery('set'),
})

function fleetContracts(kind: 'Agent' | 'Unit') {
  const base = `/api/v1/${kind === 'Agent' ? 'agents' : 'units'}/{id}`
  const tags = [kind]
  return {
    effectiveTools: {
      method: 'GET',
      path: `${base}/effective-tools`,
      operationId: `get${kind}EffectiveTools`,
      tags,
      access: 'read',
      summary: `The ${kind.toLowerCase()}'s effective tool set with provenance; ?include=excluded adds shadowed and denied entries`,
      params: idParams,
      query: effectiveQuery,
      response: effectiveToolsAnswer,
      etag: { from: 'registry', exceptWith: 'watch' },
    },
    getImageTools: {
      method: 'GET',
      path: `${base}/image-tools`,
      operationId: `get${kind}ImageTools`,
      tags,
      access: 'read',
      summary: `The cached tools of the ${kind.toLowerCase()}'s image, with the digest they came from`,
      params: idParams,
      query: z.strictObject({ namespace: z.string().max(63).optional() }),
      response: imageToolsAnswer,
      etag: { from: 'registry' },
    },
    putImageTools: {
      method: 'PUT',
      path: `${base}/image-tools`,
      operationId: `put${kind}ImageTools`,
      tags,
      access: 'write',
      summary: `Upload the image's tools manifest (the GET /a2a/tools array) for a ${kind.toLowerCase()} without a listener`,
      params: idParams,
      query: z.strictObject({ namespace: z.string().max(63).optional() }),
      body: imageToolsUpload,
      response: imageToolsAnswer,
    },
  } satisfies Record<string, RouteContract>
}

export const agentConfigContract = {
  method: 'GET',
  path: '/api/v1/agents/{id}/config.yaml',
  operationId: 'getAgentConfigYaml',
  tags: ['Agent'],
  access: 'read',
  agentCredentials: 'own',
  summary:
    "The agent's runtime config.yaml `tools:` block (language-operator format): the gateway, and servers marked for direct access; the agent itself may fetch its own with its credential",
  params: idParams,
  query: z.strictObject({ namespace: z.string().max(63).optional(), ...watchQuery('config.yaml') }),
  response: z.string().openapi({ description: 'YAML' }),
  responseContentType: 'application/yaml',
  // An agent's credential reads only its own: tags are the caller's, so none is shared across callers.
  etag: { from: 'registry', varies: ['caller', 'origin'], exceptWith: 'watch' },
} satisfies RouteContract

export const FLEET_CONTRACTS = { Agent: fleetContracts('Agent'), Unit: fleetContracts('Unit') }

export function fleetRoutes(kind: 'Agent' | 'Unit') {
  const c = FLEET_CONTRACTS[kind]
  return {
    effectiveTools: route(c.effectiveTools, async (ctx) => {
      const { params, query, request } = ctx
      return query.watch
        ? watchEffectiveSet({
            kind,
            idOrName: params.id,
            namespace: query.namespace,
            includeExcluded: query.include === 'excluded',
            resumeFrom: query.resourceVersion ?? request.headers.get('last-event-id') ?? undefined,
            signal: request.signal,
            notices: query.events === 'notices' ? { etag: () => plainReadTag(c.effectiveTools, ctx, WATCH_PARAMS) } : undefined,
          })
        : effectiveSetAnswer(kind, params.id, query.namespace, query.include === 'excluded')
    }),
    getImageTools: route(c.getImageTools, async ({ params, query }) => imageToolsOf((await getRow(kind, params.id, query.namespace)) as never)),
    putImageTools: route(c.putImageTools, async (ctx) => setImageTools(kind, ctx.params.id, ctx.query.namespace, ctx.body, auditContextOf(ctx))),
  }
}

export const agentConfigRoute = route(agentConfigContract, async (ctx) => {
  const { params, query, request, actor } = ctx
  return query.watch
    ? watchAgentConfig({
        idOrName: params.id,
        namespace: query.namespace,
        caller: actor,
        publicOrigin: publicOrigin(request),
        resumeFrom: query.resourceVersion ?? request.headers.get('last-event-id') ?? undefined,
        signal: request.signal,
        notices: query.events === 'notices' ? { etag: () => plainReadTag(agentConfigContract, ctx, WATCH_PARAMS) } : undefined,
      })
    : agentConfigYaml(await getRow('Agent', params.id, query.namespace), actor, publicOrigin(request))
})
