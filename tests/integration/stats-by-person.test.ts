// Calls by person through the real gateway and the real rollup: agents acting for people (RFC 8693
// token exchange against a real oidc-provider IdP) and on their own, counted per person with their
// failures and how many agents acted for them, the calls made for nobody as one "no person" row.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { statsRoutes } from '@/lib/api/stats-routes'
import { prisma } from '@/lib/db'
import { markHoursForRecompute, rollupCallStats } from '@/lib/stats/rollup-call-stats'
import { agentClient, setUpGatewayRegistry, startRestUpstream, startUpstreamMcp } from '../support/gateway-fixtures'
import { startTestIdp, type TestIdp } from '../support/oidc-idp'
import { startWebApp, type WebApp } from '../support/web-app'
import { applyManifest, call, yaml } from './helpers'
import { resetCalls } from './stats-fixtures'
import { JWT_TOKEN_TYPE, troToken } from '../support/token-exchange'

const AUDIENCE = 'toolroom-gateway'

let app: WebApp
let idp: TestIdp
let mcp: Awaited<ReturnType<typeof startUpstreamMcp>>
let rest: Awaited<ReturnType<typeof startRestUpstream>>
let tokens: Awaited<ReturnType<typeof setUpGatewayRegistry>>

const jane = { subject: 'jane-0042', claims: { name: 'Jane Doe', email: 'jane.doe@corp.test' } }
const bob = { subject: 'bob-0007', claims: { name: 'Bob Stone', email: 'bob.stone@corp.test' } }

/** A tro_ token for the agent of `actorToken` acting for `person`, from Toolroom's token endpoint. */
async function actingFor(person: typeof jane, actorToken: string): Promise<string> {
  return troToken(app.url, { subjectToken: await idp.personToken(person, { audience: AUDIENCE }), actorToken, subjectTokenType: JWT_TOKEN_TYPE })
}

async function callTools(token: string, calls: Array<{ name: string; arguments: Record<string, unknown> }>) {
  const client = await agentClient(app.url, token)
  try {
    // A failing upstream answers a JSON-RPC error: recorded as a failed call all the same.
    for (const c of calls) await client.callTool(c).catch(() => undefined)
  } finally {
    await client.close()
  }
}

const echo = (text: string) => ({ name: 'upstream.echo', arguments: { text } })
const broken = { name: 'broken.lookup', arguments: {} }

async function byPerson(query = '') {
  const res = await call(statsRoutes.byPerson, `/api/v1/stats/people${query}`)
  expect(res.status, res.text).toBe(200)
  return res.json
}

beforeAll(async () => {
  mcp = await startUpstreamMcp()
  rest = await startRestUpstream()
  tokens = await setUpGatewayRegistry(mcp.url, rest.url, 'sk-by-person-9e8d')
  await prisma.$executeRawUnsafe('TRUNCATE "IdentityProvider", "DelegatedAccessToken", "SubjectTokenUse" CASCADE')
  await resetCalls()
  idp = await startTestIdp([], [])
  app = await startWebApp()
  await applyManifest(yaml`
apiVersion: toolroom.dev/v1alpha1
kind: IdentityProvider
metadata: { name: corp-sso }
spec:
  issuer: "${idp.issuer}"
  audiences: [${AUDIENCE}]
  emailClaim: email
`)
}, 60_000)

afterAll(async () => {
  await app?.close()
  await idp?.close()
  await mcp?.close()
  await rest?.close()
})

describe('calls by person', () => {
  it('counts calls, failures and agents per person, and the calls made for nobody as one row', async () => {
    await callTools(await actingFor(jane, tokens.tokenA), [echo('one'), echo('two'), broken])
    await callTools(await actingFor(jane, tokens.tokenB), [echo('three')])
    await callTools(await actingFor(bob, tokens.tokenA), [echo('four')])
    await callTools(tokens.tokenA, [echo('five')])
    await callTools(tokens.tokenB, [echo('six')])
    expect(await prisma.toolCall.count()).toBe(7)

    const rolled = await rollupCallStats()
    expect(rolled).toMatchObject({ ran: true, callsAdded: 7 })
    const expected = [
      { onBehalfOf: { issuer: idp.issuer, subject: 'jane-0042', displayName: 'Jane Doe' }, calls: 4, failures: 1, refused: 0, failureRate: 0.25, agents: 2 },
      { onBehalfOf: null, calls: 2, failures: 0, refused: 0, failureRate: 0, agents: 2 },
      { onBehalfOf: { issuer: idp.issuer, subject: 'bob-0007', displayName: 'Bob Stone' }, calls: 1, failures: 0, refused: 0, failureRate: 0, agents: 1 },
    ]
    const answer = await byPerson()
    expect(answer.items).toEqual(expected)
    expect(answer.total).toBe(3)
    expect(new Date(answer.window.from).getTime()).toBeLessThan(new Date(answer.window.to).getTime())

    // The hours recomputed from the call log give the same figures as the calls added one by one.
    await markHoursForRecompute()
    expect((await rollupCallStats()).hoursRecomputed).toBeGreaterThan(0)
    expect((await byPerson()).items).toEqual(expected)

    const first = await byPerson('?limit=1')
    expect(first.items).toEqual([expected[0]])
    expect(first.total).toBe(3)

    // One identity provider's people (its page says how many were acted for): no "no person" row.
    const ofIdp = await byPerson(`?issuer=${encodeURIComponent(idp.issuer)}`)
    expect(ofIdp.items).toEqual([expected[0], expected[2]])
    expect(ofIdp.total).toBe(2)
    expect((await byPerson('?issuer=https%3A%2F%2Fnobody.example')).total).toBe(0)
  })

  it('answers a clear problem for a bad limit', async () => {
    const res = await call(statsRoutes.byPerson, '/api/v1/stats/people?limit=0')
    expect(res.status).toBe(400)
    expect(res.text).toMatch(/limit/)
  })
})
