// Connecting a LanguageTool whose MCP server follows MCP authorization (docs/design/gateway.md,
// "Connected upstreams"): its state, the start (the authorization URL the operator's browser goes
// to), the callback the authorization server sends the browser back to, and the disconnect. No
// answer ever carries a token.
import { auditContextOf } from '@/lib/audit/audit-actor'
import type { RouteContract } from '@/lib/http/contract'
import { publicOrigin } from '@/lib/request-origin/public-origin'
import { route } from '@/lib/http/route'
import { z } from '@/lib/http/zod'
import { finishUpstreamConnection } from '@/lib/upstream-auth/finish-upstream-connection'
import { disconnectUpstream, readUpstreamConnection } from '@/lib/upstream-auth/read-upstream-connection'
import { CALLBACK_PATH, startUpstreamConnection } from '@/lib/upstream-auth/start-upstream-connection'
import { idParams, namespaceQuery } from './schemas'

const connectionState = z
  .object({
    state: z.enum(['not_connected', 'connected', 'reconnect']),
    message: z.string().nullable(),
    authorizationServer: z.string().nullable(),
    scopes: z.array(z.string()),
    connectedAt: z.string().nullable(),
    connectedBy: z.string().nullable(),
    refreshedAt: z.string().nullable(),
    expiresAt: z.string().nullable().openapi({ description: 'When the current access token expires (it is replaced shortly before)' }),
  })
  .openapi('UpstreamConnection')

// What an authorization server sends back (RFC 6749 §4.1.2, RFC 9207's iss); other parameters it may add are ignored.
export const callbackQuery = z.object({
  state: z.string().min(1).max(512),
  code: z.string().min(1).max(4096).optional(),
  iss: z.string().max(2048).optional(),
  error: z.string().max(256).optional(),
  error_description: z.string().max(2048).optional(),
})

const path = '/api/v1/languagetools/{id}/connection'

export const UPSTREAM_CONNECTION_CONTRACTS = {
  get: {
    method: 'GET',
    path,
    operationId: 'getLanguageToolConnection',
    tags: ['LanguageTool'],
    access: 'read',
    summary:
      "Whether an operator has connected this LanguageTool's MCP server (auth.oauth2.grantType: authorization_code): since when, by whom, the scopes granted",
    params: idParams,
    query: namespaceQuery,
    response: connectionState,
  },
  start: {
    method: 'POST',
    path,
    operationId: 'connectLanguageTool',
    tags: ['LanguageTool'],
    access: 'write',
    summary:
      "Start connecting this LanguageTool: discovers its authorization server, registers a client unless one is configured, and answers the authorization URL for the operator's browser (valid 10 minutes, once, for this operator only)",
    params: idParams,
    query: namespaceQuery,
    response: z.object({ authorizationUrl: z.string(), expiresAt: z.string() }).openapi('UpstreamConnectionStart'),
  },
  disconnect: {
    method: 'DELETE',
    path,
    operationId: 'disconnectLanguageTool',
    tags: ['LanguageTool'],
    access: 'write',
    summary: "Forget this LanguageTool's tokens: calls and discovery need it connected again",
    params: idParams,
    query: namespaceQuery,
    successStatus: 204,
  },
  callback: {
    method: 'GET',
    path: CALLBACK_PATH,
    operationId: 'finishLanguageToolConnection',
    tags: ['LanguageTool'],
    access: 'write',
    summary:
      "Where the authorization server sends the operator's browser back: checks the state (unused, unexpired, started by the same operator), exchanges the code and stores the tokens sealed; the answer is a page that sends the browser on to the LanguageTool's page",
    query: callbackQuery,
    responseContentType: 'text/html',
    response: z.string().openapi({ description: "An HTML page that sends the browser on to the LanguageTool's page" }),
  },
} satisfies Record<string, RouteContract>

export const upstreamConnectionRoutes = {
  get: route(UPSTREAM_CONNECTION_CONTRACTS.get, async (ctx) => readUpstreamConnection(ctx.params.id, ctx.query.namespace)),
  start: route(UPSTREAM_CONNECTION_CONTRACTS.start, async (ctx) =>
    startUpstreamConnection(ctx.params.id, ctx.query.namespace, publicOrigin(ctx.request), ctx.actor, auditContextOf(ctx)),
  ),
  disconnect: route(UPSTREAM_CONNECTION_CONTRACTS.disconnect, async (ctx) => {
    await disconnectUpstream(ctx.params.id, ctx.query.namespace, auditContextOf(ctx))
    return new Response(null, { status: 204 })
  }),
  callback: route(UPSTREAM_CONNECTION_CONTRACTS.callback, async (ctx) => {
    const server = await finishUpstreamConnection(ctx.query, ctx.actor, auditContextOf(ctx))
    const page = `/language-tools/${encodeURIComponent(server.name)}?namespace=${encodeURIComponent(server.namespace)}&connected=1`
    return new Response(connectedPage(`${server.namespace}/${server.name}`, page, 'Back to its page'), {
      headers: { 'content-type': 'text/html; charset=utf-8' },
    })
  }),
}

// A page, not a redirect: an API answer is a document of its own (OpenAPI wants a 2xx), and the
// browser goes on by itself (no script: the portal's content security policy allows none inline).
export function connectedPage(what: string, page: string, back: string): string {
  const html = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta http-equiv="refresh" content="0;url=${html(page)}"><title>Connected</title></head><body><p>${html(what)} is connected. <a href="${html(page)}">${html(back)}</a></p></body></html>`
}
