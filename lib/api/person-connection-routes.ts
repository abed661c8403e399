// A person's own connected accounts (docs/design/access.md#connected-accounts): the list their
// Connections page shows, the start (the authorization URL their browser goes to), the callback the
// authorization server sends the browser back to, and the disconnect. Any signed-in person may use
// them, for themselves only; no answer ever carries a token.
import { auditContextOf } from '@/lib/audit/audit-actor'
import type { RouteContract } from '@/lib/http/contract'
import { publicOrigin } from '@/lib/request-origin/public-origin'
import { route } from '@/lib/http/route'
import { z } from '@/lib/http/zod'
import { finishUpstreamConnection } from '@/lib/upstream-auth/finish-upstream-connection'
import { disconnectPersonConnection, listPersonConnections } from '@/lib/upstream-auth/person-connections'
import { PERSON_CALLBACK_PATH, personOf, startUpstreamConnection } from '@/lib/upstream-auth/start-upstream-connection'
import { CONNECTIONS_PAGE } from '@/lib/upstream-auth/upstream-connection-rules'
import { callbackQuery, connectedPage } from './upstream-connection-routes'
import { idParams, namespaceQuery } from './schemas'

const personConnection = z
  .object({
    namespace: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    state: z.enum(['not_connected', 'connected', 'reconnect']),
    message: z.string().nullable(),
    authorizationServer: z.string().nullable(),
    scopes: z.array(z.string()),
    connectedAt: z.string().nullable(),
    refreshedAt: z.string().nullable(),
  })
  .openapi('PersonConnection')

const path = '/api/v1/connections/languagetools/{id}'

export const PERSON_CONNECTION_CONTRACTS = {
  list: {
    method: 'GET',
    path: '/api/v1/connections',
    operationId: 'listMyConnections',
    tags: ['Connections'],
    access: 'read',
    summary:
      'The LanguageTools whose calls use each person’s own account (auth.oauth2.connect: perPerson), and whether the signed-in person has connected theirs: since when, the scopes granted',
    response: z.object({ items: z.array(personConnection) }).openapi('PersonConnectionList'),
  },
  start: {
    method: 'POST',
    path,
    operationId: 'connectMyAccount',
    tags: ['Connections'],
    access: 'read',
    summary:
      "Start connecting the signed-in person's own account on this LanguageTool's server: answers the authorization URL for their browser (valid 10 minutes, once, for this person only)",
    params: idParams,
    query: namespaceQuery,
    response: z.object({ authorizationUrl: z.string(), expiresAt: z.string() }).openapi('PersonConnectionStart'),
  },
  disconnect: {
    method: 'DELETE',
    path,
    operationId: 'disconnectMyAccount',
    tags: ['Connections'],
    access: 'read',
    summary:
      "Delete the signed-in person's tokens for this LanguageTool (revoked at the authorization server when it offers revocation): calls made for them need it connected again",
    params: idParams,
    query: namespaceQuery,
    successStatus: 204,
  },
  callback: {
    method: 'GET',
    path: PERSON_CALLBACK_PATH,
    operationId: 'finishMyConnection',
    tags: ['Connections'],
    access: 'read',
    summary:
      "Where the authorization server sends the person's browser back: checks the state (unused, unexpired, started by the same person), exchanges the code and stores the tokens sealed; the answer is a page that sends the browser on to the Connections page",
    query: callbackQuery,
    responseContentType: 'text/html',
    response: z.string().openapi({ description: 'An HTML page that sends the browser on to the Connections page' }),
  },
} satisfies Record<string, RouteContract>

export const personConnectionRoutes = {
  list: route(PERSON_CONNECTION_CONTRACTS.list, async (ctx) => listPersonConnections(personOf(ctx.actor))),
  start: route(PERSON_CONNECTION_CONTRACTS.start, async (ctx) =>
    startUpstreamConnection(ctx.params.id, ctx.query.namespace, publicOrigin(ctx.request), ctx.actor, auditContextOf(ctx), 'person'),
  ),
  disconnect: route(PERSON_CONNECTION_CONTRACTS.disconnect, async (ctx) => {
    await disconnectPersonConnection(ctx.params.id, ctx.query.namespace, personOf(ctx.actor), auditContextOf(ctx))
    return new Response(null, { status: 204 })
  }),
  callback: route(PERSON_CONNECTION_CONTRACTS.callback, async (ctx) => {
    const server = await finishUpstreamConnection(ctx.query, ctx.actor, auditContextOf(ctx), 'person')
    const page = `${CONNECTIONS_PAGE}?languageTool=${encodeURIComponent(`${server.namespace}/${server.name}`)}&connected=1`
    return new Response(connectedPage(`Your account on ${server.namespace}/${server.name}`, page, 'Back to your connections'), {
      headers: { 'content-type': 'text/html; charset=utf-8' },
    })
  }),
}
