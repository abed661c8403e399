// Every API route × every kind of caller: no credentials get 401, a role without the permission gets
// 403, and everyone else gets through (any answer but 401/403). The routes come from ALL_CONTRACTS,
// so a route added without thought about access fails here.
import path from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { ALL_CONTRACTS } from '@/lib/api/contracts'
import type { Access, Role, Scope } from '@/lib/auth/access-rules'
import type { RouteContract } from '@/lib/http/contract'
import { call, type Caller, TEST_ORIGIN } from './helpers'
import { ROLE_LIST, sessionCookie, tokenFor } from './access-fixtures'

/** Written out here rather than imported, so a change to the rules in lib/ has to be made twice. */
const ROLES_ALLOWED: Record<Exclude<Access, 'public' | 'agent'>, Role[]> = {
  read: ['viewer', 'operator', 'approver', 'admin'],
  write: ['operator', 'admin'],
  approve: ['approver', 'admin'],
  admin: ['admin'],
}
const ALL_SCOPES_OF: Record<Role, Scope[]> = {
  viewer: ['read'],
  operator: ['read', 'write'],
  approver: ['read', 'approve'],
  admin: ['read', 'write', 'approve', 'admin'],
}
const PUBLIC_ROUTES = [
  'GET /api/v1/openapi.json',
  'POST /api/v1/session',
  // MCP authorization's discovery documents (RFC 9728, RFC 8414): clients read them before they hold any credential.
  'GET /.well-known/oauth-protected-resource',
  'GET /.well-known/oauth-protected-resource/mcp',
  'GET /.well-known/oauth-authorization-server',
  'GET /.well-known/oauth-authorization-server/api/auth',
]
/** Changes to SideEffectPolicies and Secrets are for admins only; their 403 names the kind and the rule. */
const ADMIN_ONLY_KIND_ROUTES: Record<string, string> = {
  'POST /api/v1/sideeffectpolicies': 'SideEffectPolicy',
  'PUT /api/v1/sideeffectpolicies/{id}': 'SideEffectPolicy',
  'DELETE /api/v1/sideeffectpolicies/{id}': 'SideEffectPolicy',
  'POST /api/v1/secrets': 'Secret',
  'PUT /api/v1/secrets/{id}': 'Secret',
  'DELETE /api/v1/secrets/{id}': 'Secret',
  'POST /api/v1/secrets/{id}/rotate': 'Secret',
}

type Handler = (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>
interface Who {
  label: string
  caller: Caller
  /** What this caller may do, or null for nobody. */
  role: Role | null
  scopes?: Scope[]
}

const key = (c: RouteContract) => `${c.method} ${c.path}`
const SOME_ID = '00000000-0000-4000-8000-000000000000'

async function handlerFor(contract: RouteContract): Promise<Handler> {
  const file = path.resolve(`app${contract.path.replace(/\{(\w+)\}/g, '[$1]')}/route.ts`)
  const mod = (await import(file)) as Record<string, Handler>
  return mod[contract.method]
}

function expected(contract: RouteContract, who: Who): 'allowed' | 401 | 403 | '401or403' {
  if (contract.access === 'public') return 'allowed'
  if (contract.access === 'agent') return '401or403'
  if (!who.role) return 401
  const byRole = ROLES_ALLOWED[contract.access].includes(who.role)
  const byScope = !who.scopes || who.scopes.some((s) => s === contract.access || s === 'admin' || contract.access === 'read')
  return byRole && byScope ? 'allowed' : 403
}

describe('every route × every caller', () => {
  const callers: Who[] = [{ label: 'no credentials', caller: { cookie: '', origin: TEST_ORIGIN }, role: null }]
  // Signing out ends the session the table is using, so that route goes last.
  const contracts = [...ALL_CONTRACTS].sort((a, b) => Number(a.operationId === 'signOut') - Number(b.operationId === 'signOut'))

  beforeAll(async () => {
    for (const role of ROLE_LIST) {
      const cookie = await sessionCookie(role, 'table')
      callers.push({ label: `${role} (session)`, caller: { cookie }, role })
      const { token } = await tokenFor(cookie, ALL_SCOPES_OF[role])
      callers.push({ label: `${role} (token ${ALL_SCOPES_OF[role].join('+')})`, caller: { token }, role, scopes: ALL_SCOPES_OF[role] })
    }
    const adminCookie = await sessionCookie('admin', 'table-read')
    const { token } = await tokenFor(adminCookie, ['read'])
    callers.push({ label: 'admin (token read only)', caller: { token }, role: 'admin', scopes: ['read'] })
  })

  it('only the routes meant to be public are public', () => {
    expect(
      ALL_CONTRACTS.filter((c) => c.access === 'public')
        .map(key)
        .sort(),
    ).toEqual([...PUBLIC_ROUTES].sort())
  })

  it('answers 401, 403 or lets through exactly as the access rules say', async () => {
    expect(callers.length).toBe(10)
    const mismatches: string[] = []
    let checked = 0
    for (const contract of contracts) {
      const handler = await handlerFor(contract)
      expect(handler, `${key(contract)} has a handler`).toBeTypeOf('function')
      const url = contract.path.replace(/\{\w+\}/g, SOME_ID)
      const params = Object.fromEntries([...contract.path.matchAll(/\{(\w+)\}/g)].map((m) => [m[1], SOME_ID]))
      for (const who of callers) {
        const res = await call(handler, url, { method: contract.method, params, as: who.caller })
        const want = expected(contract, who)
        const ok =
          want === 'allowed' ? res.status !== 401 && res.status !== 403 : want === '401or403' ? res.status === 401 || res.status === 403 : res.status === want
        if (!ok) mismatches.push(`${key(contract)} as ${who.label}: got ${res.status}, want ${want}`)
        if (res.status === 401 || res.status === 403) expect(res.contentType).toBe('application/problem+json')
        const adminOnlyKind = ADMIN_ONLY_KIND_ROUTES[key(contract)]
        if (res.status === 403 && adminOnlyKind && !res.json.detail.startsWith(`${adminOnlyKind} resources can be changed by admins only`))
          mismatches.push(`${key(contract)} as ${who.label}: the 403 does not name the rule: ${res.json.detail}`)
        checked++
      }
    }
    expect(mismatches).toEqual([])
    expect(checked).toBe(contracts.length * callers.length)
  })

  it('keeps every change to SideEffectPolicies and Secrets for admins, and only those among resource writes', () => {
    const changes = ALL_CONTRACTS.filter((c) => c.method !== 'GET' && /^\/api\/v1\/(secrets|sideeffectpolicies)(\/|$)/.test(c.path))
    expect(changes.map(key).sort()).toEqual(Object.keys(ADMIN_ONLY_KIND_ROUTES).sort())
    for (const c of changes) expect(c.access, key(c)).toBe('admin')
    for (const c of changes) expect(c.accessRule, key(c)).toMatchObject({ kind: ADMIN_ONLY_KIND_ROUTES[key(c)], rule: 'admin-only-kind' })
    // The other kinds stay with operators.
    expect(
      ALL_CONTRACTS.filter((c) => c.operationId === 'createTool' || c.operationId === 'replaceAgent' || c.operationId === 'applyManifest').map((c) => c.access),
    ).toEqual(['write', 'write', 'write'])
  })

  it('refuses a read-scoped token on every route that changes something', () => {
    // Guard for the table above: it must contain write routes, or "refused on writes" proves nothing.
    expect(ALL_CONTRACTS.filter((c) => c.access === 'write').length).toBeGreaterThan(5)
  })
})
