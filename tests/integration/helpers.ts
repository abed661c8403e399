import { createHash } from 'node:crypto'
import { expect } from 'vitest'
import { prisma } from '@/lib/db'
import { hashToken } from '@/lib/auth/secret-token'
import { getOverview } from '@/lib/resources/get-overview'

type Handler = (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>

/**
 * Who calls: an admin API token unless told otherwise; `none` sends no credentials; `{ token }` sends
 * that bearer token; `{ cookie }` a session cookie (with a same-origin Origin header, as a browser would).
 */
export type Caller = 'admin' | 'none' | { token: string } | { cookie: string; origin?: string | null }

export interface Call {
  method?: string
  body?: unknown
  /** Sent as is when a string; JSON-encoded otherwise. */
  contentType?: string
  params?: Record<string, string>
  headers?: Record<string, string>
  as?: Caller
}

export const TEST_ORIGIN = 'http://toolroom.test'

/** Calls a route handler in-process with a real Request, as Next.js would. */
export async function call(handler: Handler, url: string, { method = 'GET', body, contentType, params = {}, headers = {}, as = 'admin' }: Call = {}) {
  const init: RequestInit = { method, headers: { ...(await credentialHeaders(as)), ...headers } }
  if (body !== undefined) {
    init.body = typeof body === 'string' ? body : JSON.stringify(body)
    ;(init.headers as Record<string, string>)['content-type'] = contentType ?? (typeof body === 'string' ? 'application/yaml' : 'application/json')
  }
  const response = await handler(new Request(`http://toolroom.test${url}`, init), { params: Promise.resolve(params) })
  const text = await response.text()
  let json: unknown = undefined
  try {
    json = text ? JSON.parse(text) : undefined
  } catch {
    // not JSON (YAML answers)
  }
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return { status: response.status, contentType: response.headers.get('content-type'), text, json: json as any, headers: response.headers }
}

async function credentialHeaders(as: Caller): Promise<Record<string, string>> {
  if (as === 'none') return {}
  if (as === 'admin') return { authorization: `Bearer ${await testAdminToken()}` }
  if ('token' in as) return { authorization: `Bearer ${as.token}` }
  const origin = as.origin === undefined ? TEST_ORIGIN : as.origin
  return { cookie: as.cookie, ...(origin ? { origin } : {}) }
}

let adminToken: string | null = null

/** One admin-scope API token per test database, derived from its URL so every test file finds the same one. */
export async function testAdminToken(): Promise<string> {
  if (adminToken) return adminToken
  const token = `trk_${createHash('sha256').update(`toolroom tests ${process.env.DATABASE_URL}`).digest('base64url')}`
  const hash = hashToken(token)
  await prisma.apiToken.upsert({
    where: { hash },
    create: { name: 'integration tests', hash, hint: token.slice(0, 10), scopes: ['admin'], origin: 'test' },
    update: { revokedAt: null },
  })
  adminToken = token
  return token
}

/** Applies a manifest as the admin, failing the test unless Apply accepts all of it; Apply's answer. */
export async function applyManifest(manifest: string) {
  const { applyRoute } = await import('@/lib/api/registry-routes')
  const applied = await call(applyRoute, '/api/v1/apply', { method: 'POST', body: manifest })
  expect(applied.status, applied.text).toBe(200)
  return applied
}

/** A new credential of the agent, issued by the admin through the API, failing the test unless it was; its token. */
export async function issueAgentCredential(agentId: string, name = 'test'): Promise<string> {
  const { agentCredentialRoutes } = await import('@/lib/api/agent-credential-routes')
  const issued = await call(agentCredentialRoutes.createCredential, `/api/v1/agents/${agentId}/credentials`, {
    method: 'POST',
    body: { name },
    params: { id: agentId },
  })
  expect(issued.status, issued.text).toBe(201)
  return issued.json.token as string
}

/** Agents with nothing but a name, each `namespace/name`: enough to list, search for or issue credentials to. */
export const bareAgents = (...refs: string[]) =>
  refs
    .map((ref) => {
      const [namespace, name] = ref.split('/')
      return `apiVersion: toolroom.dev/v1alpha1\nkind: Agent\nmetadata: { name: ${name}, namespace: ${namespace} }\nspec: {}\n`
    })
    .join('---\n')

/** Stores a LanguageTool's tools (tools/list entries) as a successful discovery run would, without running one. */
export async function storeDiscoveredTools(namespace: string, name: string, toolSchemas: object[]) {
  await prisma.languageTool.update({ where: { namespace_name: { namespace, name } }, data: { toolSchemas, phase: 'Ready', lastIntrospectedAt: new Date() } })
}

export async function resetDatabase() {
  await prisma.$executeRawUnsafe('TRUNCATE "Tool", "LanguageTool", "Connector", "Unit", "Agent", "Secret", "SideEffectPolicy", "Policy"')
}

/** Rows of every resource kind: the overview's counts, and the SideEffectPolicies it does not show. */
export async function countRows() {
  const [{ counts }, policies] = await Promise.all([getOverview(), prisma.sideEffectPolicy.count()])
  return { ...counts, policies }
}

export const yaml = (strings: TemplateStringsArray, ...values: unknown[]) => String.raw(strings, ...values).replace(/^\n/, '')
