// Connected accounts (docs/design/access.md#connected-accounts): a LanguageTool with
// `auth.oauth2.connect: perPerson`, whose server (an SDK MCP server behind the SDK's bearer-auth
// middleware) takes tokens of a real oidc-provider. Two people connect their own accounts from their
// Connections page (through the provider's own login and consent pages), and the MCP clients they
// consented to are called with each person's own token. A person who has not connected is asked with
// URL-mode elicitation (-32042) or a plain error naming the page; a call for nobody, a disabled person
// and a disconnect (which revokes at the authorization server) each stop the person's token. A call
// held for approval runs, once approved, with the same person's connection.
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { ErrorCode, McpError, UrlElicitationRequiredError } from '@modelcontextprotocol/sdk/types.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as approveApi from '@/app/api/v1/approvals/[id]/approve/route'
import { oauthRoutes } from '@/lib/api/oauth-routes'
import { personConnectionRoutes } from '@/lib/api/person-connection-routes'
import { upstreamConnectionRoutes } from '@/lib/api/upstream-connection-routes'
import { reloadConfig } from '@/lib/config'
import { prisma } from '@/lib/db'
import { executeApprovedCall } from '@/lib/approvals/execute-approved-call'
import { isSafeToRepeat, runApprovedCall } from '@/lib/gateway/call-tool'
import { closeMcpSessions } from '@/lib/gateway/executors/mcp'
import { PERSON_CALLBACK_PATH } from '@/lib/upstream-auth/start-upstream-connection'
import { agentClient } from '../support/gateway-fixtures'
import {
  type AuthorizationServer,
  authorizeInBrowser,
  type ProtectedMcpServer,
  startAuthorizationServer,
  startProtectedMcpServer,
} from '../support/mcp-authorization'
import { MemoryProvider, signInMcpClient } from '../support/oauth-browser'
import { startWebApp, type WebApp } from '../support/web-app'
import { ensureUser, sessionCookie } from './access-fixtures'
import { applyManifest, call, issueAgentCredential, resetDatabase, TEST_ORIGIN } from './helpers'

// The gateway remembers an authenticated token this long: a disabled person's connections must stop
// even where a gateway process still takes their token (another process, within its cache).
process.env.TOOLROOM_AGENT_AUTH_CACHE_MS = '600000'
// A call held for approval is answered at once, and its approval takes effect at once.
process.env.TOOLROOM_APPROVAL_WAIT_SECONDS = '0'
process.env.TOOLROOM_APPROVAL_UNDO_SECONDS = '0'

const NS = 'persons'
const SERVER = 'personal'
let as: AuthorizationServer
let upstream: ProtectedMcpServer
let app: WebApp
let agentToken: string
let oauthClientId: string
const people: Record<'jane' | 'joe', { id: string; cookie: string; provider: MemoryProvider }> = {} as never

const connectionPath = (name = SERVER) => `/api/v1/connections/languagetools/${name}?namespace=${NS}`
const listConnections = (cookie: string) => call(personConnectionRoutes.list, '/api/v1/connections', { as: { cookie } })
const startConnecting = (cookie: string, name = SERVER) =>
  call(personConnectionRoutes.start, connectionPath(name), { method: 'POST', params: { id: name }, as: { cookie } })
const callback = (url: string, cookie: string) => {
  const target = new URL(url)
  return call(personConnectionRoutes.callback, `${target.pathname}${target.search}`, { as: { cookie } })
}
const connectionsPage = () => `${app.url}/connections?languageTool=${encodeURIComponent(`${NS}/${SERVER}`)}`

/** A person's whole connection: the authorization URL, the provider's pages signed in as `login`, the callback. */
async function connect(who: 'jane' | 'joe', login: string) {
  const started = await startConnecting(people[who].cookie)
  expect(started.status, started.text).toBe(200)
  const back = await authorizeInBrowser(started.json.authorizationUrl, `${TEST_ORIGIN}${PERSON_CALLBACK_PATH}`, login)
  const finished = await callback(back, people[who].cookie)
  expect(finished.status, finished.text).toBe(200)
  expect(finished.text).toContain('/connections?languageTool=')
}

/** An MCP client a person consented to (the MCP SDK's own client), declaring URL elicitation or not. */
async function consentedClient(who: 'jane' | 'joe', urlElicitation: boolean) {
  const client = new Client({ name: `${who}'s client`, version: '1' }, { capabilities: urlElicitation ? { elicitation: { url: {} } } : {} })
  await client.connect(new StreamableHTTPClientTransport(new URL(`${app.url}/mcp`), { authProvider: people[who].provider }))
  return client
}

async function echoAs(who: 'jane' | 'joe', text: string, urlElicitation = false) {
  const client = await consentedClient(who, urlElicitation)
  try {
    return await client.callTool({ name: `${SERVER}.echo`, arguments: { text } })
  } finally {
    await client.close()
  }
}

async function refusal(attempt: Promise<unknown>): Promise<McpError> {
  const outcome = await attempt.then(
    () => null,
    (e: unknown) => e,
  )
  expect(outcome).toBeInstanceOf(McpError)
  return outcome as McpError
}

/** An approver approves; the worker's run (workers/jobs/execute-approved-call.ts), here in this process. */
async function approveAndRun(approvalId: string) {
  const approved = await call(approveApi.POST, `/api/v1/approvals/${approvalId}/approve`, { method: 'POST', params: { id: approvalId }, body: {} })
  expect(approved.status, approved.text).toBe(200)
  const ran = await executeApprovedCall(approvalId, 1, {
    run: (a, args, key) => runApprovedCall(a, (args ?? {}) as Record<string, unknown>, key),
    safeToRepeat: (a) => isSafeToRepeat(a),
    abandon: async () => {},
  })
  expect(ran).toBe('executed')
}

/** The account at the upstream's authorization server whose token the upstream was last sent. */
async function lastAccountSeen() {
  const token = upstream.seen.at(-1)!
  return (await as.verify(token))?.accountId
}

beforeAll(async () => {
  reloadConfig()
  await resetDatabase()
  await prisma.$executeRawUnsafe('TRUNCATE "PersonConnection", "UpstreamConnection", "UpstreamAuthorization"')
  as = await startAuthorizationServer(['tools.read'])
  upstream = await startProtectedMcpServer(as, ['tools.read'])
  await applyManifest(`
apiVersion: toolroom.dev/v1alpha1
kind: LanguageTool
metadata: { name: ${SERVER}, namespace: ${NS} }
spec:
  endpoint: "${upstream.endpoint}"
  auth:
    type: oauth2
    oauth2: { grantType: authorization_code, connect: perPerson, scopes: [tools.read] }
---
apiVersion: toolroom.dev/v1alpha1
kind: LanguageTool
metadata: { name: shared, namespace: ${NS} }
spec:
  endpoint: "${upstream.endpoint}"
  auth:
    type: oauth2
    oauth2: { grantType: authorization_code, scopes: [tools.read] }
---
apiVersion: toolroom.dev/v1alpha1
kind: Agent
metadata: { name: assistant, namespace: ${NS} }
spec:
  languageTools: [${SERVER}]
`)
  // The tools as discovery (with the operator's connection) would have found them: a call needs only the person's.
  await prisma.languageTool.update({
    where: { namespace_name: { namespace: NS, name: SERVER } },
    data: { toolSchemas: [{ name: 'echo', inputSchema: { type: 'object', properties: { text: { type: 'string' } } } }], phase: 'Ready' },
  })
  const agent = await prisma.agent.findUniqueOrThrow({ where: { namespace_name: { namespace: NS, name: 'assistant' } } })
  agentToken = await issueAgentCredential(agent.id)
  app = await startWebApp()
  const created = await call(oauthRoutes.createClient, '/api/v1/oauth/clients', {
    method: 'POST',
    body: { name: 'Assistant app', agent: `${NS}/assistant`, kind: 'authorization_code', redirectUris: ['http://127.0.0.1:53682/callback'] },
  })
  expect(created.status, created.text).toBe(201)
  oauthClientId = created.json.clientId
  // Only operators and admins may let an MCP client act for them (lib/sign-in/oauth-consent.ts).
  for (const who of ['jane', 'joe'] as const) {
    const user = await ensureUser('operator', who)
    const cookie = await sessionCookie('operator', who)
    const provider = new MemoryProvider({ client_id: oauthClientId })
    people[who] = { id: user.id, cookie, provider }
    // The MCP client's own sign-in: refused without a token, then the person consents at Toolroom.
    await signInMcpClient(app.url, provider, cookie, () => consentedClient(who, false))
  }
}, 90_000)

afterAll(async () => {
  await closeMcpSessions()
  await app?.close()
  await upstream?.close()
  await as?.close()
})

describe('a LanguageTool whose calls use each person’s own account', () => {
  it('is listed on every person’s Connections page, not connected', async () => {
    const listed = await listConnections(people.jane.cookie)
    expect(listed.status, listed.text).toBe(200)
    expect(listed.json.items).toEqual([expect.objectContaining({ namespace: NS, name: SERVER, state: 'not_connected', scopes: [], connectedAt: null })])
  })

  it('asks a person who has not connected with URL elicitation, naming their Connections page, when the client takes it', async () => {
    const seen = upstream.seen.length
    const e = await refusal(echoAs('jane', 'before connecting', true))
    expect(e).toBeInstanceOf(UrlElicitationRequiredError)
    expect(e.code).toBe(ErrorCode.UrlElicitationRequired)
    const [elicitation] = (e as UrlElicitationRequiredError).elicitations
    expect(elicitation).toMatchObject({ mode: 'url', url: connectionsPage(), elicitationId: expect.any(String) })
    expect(elicitation.message).toContain('has not connected theirs yet')
    expect(upstream.seen.length).toBe(seen)
  })

  it('tells a client that does not take URL elicitation the same, as a plain error naming the page', async () => {
    const e = await refusal(echoAs('joe', 'before connecting', false))
    expect(e).not.toBeInstanceOf(UrlElicitationRequiredError)
    expect(e.code).toBe(ErrorCode.InternalError)
    expect(e.message).toContain(`the MCP server "${NS}/${SERVER}" calls it with the account of the person they are made for`)
    expect(e.message).toContain(`connect it on the Connections page (${connectionsPage()})`)
    expect(e.data).toMatchObject({ errorCode: 'connection_required', connection: { need: 'not_connected', url: connectionsPage() } })
  })

  it('refuses a call made for nobody, saying the agent must act for a person', async () => {
    const client = await agentClient(app.url, agentToken)
    try {
      const e = await refusal(client.callTool({ name: `${SERVER}.echo`, arguments: { text: 'nobody' } }))
      expect(e.message).toContain('this call is made for nobody')
      expect(e.data).toMatchObject({ errorCode: 'upstream_auth', connection: { need: 'no_person' } })
    } finally {
      await client.close()
    }
  })

  it('is connected by each person for themselves, and each person’s calls carry their own token', async () => {
    await connect('jane', 'jane@upstream.test')
    await connect('joe', 'joe@upstream.test')

    expect((await echoAs('jane', 'as jane')).content).toEqual([{ type: 'text', text: 'as jane' }])
    expect(await lastAccountSeen()).toBe('jane@upstream.test')
    expect((await echoAs('joe', 'as joe')).content).toEqual([{ type: 'text', text: 'as joe' }])
    expect(await lastAccountSeen()).toBe('joe@upstream.test')
    expect((await echoAs('jane', 'jane again', true)).content).toEqual([{ type: 'text', text: 'jane again' }])
    expect(await lastAccountSeen()).toBe('jane@upstream.test')

    const listed = await listConnections(people.jane.cookie)
    expect(listed.json.items[0]).toMatchObject({ state: 'connected', authorizationServer: as.issuer, scopes: expect.arrayContaining(['tools.read']) })
    expect(listed.json.items[0].connectedAt).toEqual(expect.any(String))
    // Sealed, one row a person; the operator's connection of the LanguageTool is another thing, never made here.
    const rows = await prisma.personConnection.findMany({ where: { namespace: NS, name: SERVER } })
    expect(rows.map((r) => r.userId).sort()).toEqual([people.jane.id, people.joe.id].sort())
    for (const row of rows) for (const token of upstream.seen) expect(Buffer.from(row.ciphertext!).includes(Buffer.from(token))).toBe(false)
    expect(JSON.stringify(listed.json)).not.toContain(upstream.seen.at(-1)!)
    expect(await prisma.upstreamConnection.count()).toBe(0)
  })

  it('is finished only by the person who started it, and only at the people’s callback', async () => {
    const started = await startConnecting(people.jane.cookie)
    const back = await authorizeInBrowser(started.json.authorizationUrl, `${TEST_ORIGIN}${PERSON_CALLBACK_PATH}`, 'jane@upstream.test')
    const target = new URL(back)
    const atOperators = await call(upstreamConnectionRoutes.callback, `/api/v1/upstream-connections/callback${target.search}`, {
      as: { cookie: people.jane.cookie },
    })
    expect(atOperators.status).toBe(400)
    const byJoe = await callback(back, people.joe.cookie)
    expect(byJoe.status).toBe(403)
    expect(byJoe.json.detail).toContain('started by another person')
  })

  it('is refused for a LanguageTool that is not connected by each person', async () => {
    const refused = await startConnecting(people.jane.cookie, 'shared')
    expect(refused.status).toBe(422)
    expect(refused.json.errors).toEqual([expect.objectContaining({ field: 'spec.auth.oauth2.connect', rule: 'perPerson' })])
  })

  it('stops a disabled person’s connections at once, even while the gateway still takes their token', async () => {
    expect((await echoAs('jane', 'still enabled')).content).toEqual([{ type: 'text', text: 'still enabled' }])
    const seen = upstream.seen.length
    // As an admin in another process would: this process's cache of Jane's token is not told.
    await prisma.user.update({ where: { id: people.jane.id }, data: { disabledAt: new Date() } })
    try {
      const e = await refusal(echoAs('jane', 'disabled'))
      expect(e.message).toContain(
        "Jane's Toolroom account is disabled".replace('Jane', (await prisma.user.findUniqueOrThrow({ where: { id: people.jane.id } })).name),
      )
      expect(e.data).toMatchObject({ connection: { need: 'disabled' } })
      expect(upstream.seen.length).toBe(seen)
    } finally {
      await prisma.user.update({ where: { id: people.jane.id }, data: { disabledAt: null } })
    }
    // Joe's connection is his own: untouched.
    expect((await echoAs('joe', 'joe still')).content).toEqual([{ type: 'text', text: 'joe still' }])
  })

  it('runs a call held for approval, once approved, with the same person’s own connection', async () => {
    await applyManifest(`
apiVersion: toolroom.dev/v1alpha1
kind: Policy
metadata: { name: held-echoes, namespace: ${NS} }
spec:
  selector: { tools: [${SERVER}.echo] }
  rules: [{ when: "args.text == 'held for approval'", effect: require_approval, reason: a person decides }]
`)
    const held = await echoAs('joe', 'held for approval')
    expect(held.structuredContent, JSON.stringify(held)).toMatchObject({ status: 'approval_required' })
    const approval = await prisma.approvalRequest.findUniqueOrThrow({ where: { callId: (held.structuredContent as { callId: string }).callId } })
    expect(approval).toMatchObject({ onBehalfOfSubject: people.joe.id, onBehalfOfVia: 'oauth_consent' })
    const seen = upstream.seen.length
    await approveAndRun(approval.id)
    const record = await prisma.toolCall.findFirstOrThrow({ where: { id: approval.callId } })
    expect(record, JSON.stringify(record)).toMatchObject({ outcome: 'succeeded', onBehalfOfSubject: people.joe.id })
    expect(upstream.seen.length).toBe(seen + 1)
    expect(await lastAccountSeen()).toBe('joe@upstream.test')
  })

  it('does not run a call held for a person once the OAuth client they consented to is revoked, and sends nothing', async () => {
    const held = await echoAs('joe', 'held for approval')
    expect(held.structuredContent, JSON.stringify(held)).toMatchObject({ status: 'approval_required' })
    const approval = await prisma.approvalRequest.findUniqueOrThrow({ where: { callId: (held.structuredContent as { callId: string }).callId } })
    expect(approval).toMatchObject({ onBehalfOfVia: 'oauth_consent', delegationClientId: oauthClientId })
    const seen = upstream.seen.length
    // Revoked between the hold and the decision (the client alone: its tokens stay for the tests after this one).
    await prisma.oauthClient.update({ where: { clientId: oauthClientId }, data: { disabled: true } })
    try {
      await approveAndRun(approval.id)
      const record = await prisma.toolCall.findFirstOrThrow({ where: { id: approval.callId } })
      expect(record, JSON.stringify(record)).toMatchObject({ outcome: 'failed', errorCode: 'person_unavailable' })
      expect(record.errorMessage).toContain('OAuth client')
      expect(upstream.seen.length).toBe(seen)
    } finally {
      await prisma.oauthClient.update({ where: { clientId: oauthClientId }, data: { disabled: false } })
    }
  })

  it('is disconnected by the person: the tokens are deleted and revoked at the authorization server', async () => {
    expect((await echoAs('joe', 'before disconnecting')).content).toEqual([{ type: 'text', text: 'before disconnecting' }])
    const token = upstream.seen.at(-1)!
    expect(await as.verify(token)).not.toBeNull()
    const gone = await call(personConnectionRoutes.disconnect, connectionPath(), {
      method: 'DELETE',
      params: { id: SERVER },
      as: { cookie: people.joe.cookie },
    })
    expect(gone.status, gone.text).toBe(204)
    expect(await prisma.personConnection.count({ where: { userId: people.joe.id } })).toBe(0)
    expect(await as.verify(token)).toBeNull()
    const audit = await prisma.auditEvent.findFirstOrThrow({ where: { action: 'languagetool.person_disconnected' }, orderBy: { at: 'desc' } })
    expect(audit.detail).toMatchObject({ revocation: 'revoked' })

    const e = await refusal(echoAs('joe', 'after disconnecting'))
    expect(e.data).toMatchObject({ errorCode: 'connection_required', connection: { need: 'not_connected' } })
    // Jane's stays.
    expect((await listConnections(people.jane.cookie)).json.items[0].state).toBe('connected')
    expect((await listConnections(people.joe.cookie)).json.items[0].state).toBe('not_connected')
  })
})
