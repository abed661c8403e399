// An IdentityProvider's status (docs/design/access.md#identity-provider-status): whether its keys can
// be had, when they were fetched and how many, the provider's last error, and the subject tokens
// refused by reason, as token exchanges at Toolroom's token endpoint see them. The IdP is a real
// oidc-provider; its JWKS is reached through this test's own relay, which can stop answering.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { resourceRoutes } from '@/lib/api/resource-routes'
import { prisma } from '@/lib/db'
import { listen, type Listening } from '../support/listen'
import { startTestIdp, type TestIdp } from '../support/oidc-idp'
import { until } from '../support/until'
import { startWebApp, type WebApp } from '../support/web-app'
import { applyManifest, bareAgents, call, issueAgentCredential, yaml } from './helpers'
import { exchangeAtToolroom, JWT_TOKEN_TYPE } from '../support/token-exchange'

const AUDIENCE = 'toolroom-gateway'
/** Rides along in the JWKS address: no status may show it. */
const ADDRESS_SECRET = 'jwks-key-7f3e9a'

let app: WebApp
let idp: TestIdp
let relay: Listening
let relayDown = false
let agentToken: string

const jane = { subject: 'jane-0042', claims: { name: 'Jane Doe' } }

const exchange = (subjectToken: string) => exchangeAtToolroom(app.url, { subjectToken, actorToken: agentToken, subjectTokenType: JWT_TOKEN_TYPE })

interface Status {
  phase: string
  conditions: { type: string; status: string; reason: string; message: string; lastTransitionTime: string }[]
  keys: { fetchedAt: string | null; count: number | null; lastError: string | null; lastErrorAt: string | null }
  refusals: Record<string, { count: number; lastAt: string }>
}

async function status(): Promise<Status> {
  const res = await call(resourceRoutes('IdentityProvider').get, '/api/v1/identityproviders/relayed-sso?namespace=default', { params: { id: 'relayed-sso' } })
  expect(res.status, res.text).toBe(200)
  return res.json.status as Status
}

beforeAll(async () => {
  await prisma.$executeRawUnsafe('TRUNCATE "IdentityProvider", "DelegatedAccessToken", "SubjectTokenUse", "Agent", "AgentCredential" CASCADE')
  idp = await startTestIdp([], [])
  // Passes the IdP's own JWKS through, or (down) drops the connection as an unreachable host would.
  relay = await listen(async (req, res) => {
    if (relayDown) return void res.socket?.destroy()
    const answer = await fetch(`${idp.issuer}/jwks`)
    res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' }).end(Buffer.from(await answer.arrayBuffer()))
  })
  app = await startWebApp()
  await applyManifest(bareAgents('default/ap-clerk'))
  const agent = await prisma.agent.findFirstOrThrow({ where: { namespace: 'default', name: 'ap-clerk' } })
  agentToken = await issueAgentCredential(agent.id)
  await applyManifest(yaml`
apiVersion: toolroom.dev/v1alpha1
kind: IdentityProvider
metadata: { name: relayed-sso }
spec:
  issuer: "${idp.issuer}"
  jwksUri: "${relay.url}/jwks?key=${ADDRESS_SECRET}"
  audiences: [${AUDIENCE}]
`)
}, 60_000)

afterAll(async () => {
  await app?.close()
  await relay?.close()
  await idp?.close()
})

describe("an IdentityProvider's status", () => {
  it('is Pending until a subject token of it is checked', async () => {
    const pending = await status()
    expect(pending).toMatchObject({ phase: 'Pending', conditions: [], keys: { fetchedAt: null, count: null, lastError: null }, refusals: {} })
  })

  it('shows that its keys cannot be had after an exchange attempt, and clears it once they can', async () => {
    relayDown = true
    const refused = await exchange(await idp.personToken(jane, { audience: AUDIENCE }))
    expect(refused.status).toBe(503)
    const failed = await until('the IdentityProvider Failed', async () => {
      const s = await status()
      return s.phase === 'Failed' ? s : null
    })
    expect(failed.conditions).toEqual([
      expect.objectContaining({
        type: 'KeysAvailable',
        status: 'False',
        reason: 'ProviderUnreachable',
        message: expect.stringMatching(/could not be reached/),
      }),
    ])
    expect(failed.keys.lastError).toMatch(/IdentityProvider default\/relayed-sso could not be reached/)
    expect(failed.keys.lastErrorAt).not.toBeNull()
    expect(JSON.stringify(failed)).not.toContain(ADDRESS_SECRET)

    relayDown = false
    const keySet = (await (await fetch(`${idp.issuer}/jwks`)).json()) as { keys: unknown[] }
    const exchanged = await exchange(await idp.personToken(jane, { audience: AUDIENCE }))
    expect(exchanged.status, JSON.stringify(exchanged.json)).toBe(200)
    const ready = await until('the IdentityProvider Ready', async () => {
      const s = await status()
      return s.phase === 'Ready' ? s : null
    })
    expect(ready.conditions).toEqual([expect.objectContaining({ type: 'KeysAvailable', status: 'True', reason: 'KeysFetched' })])
    expect(ready.keys).toMatchObject({ count: keySet.keys.length, lastError: null, lastErrorAt: null })
    expect(ready.keys.fetchedAt).not.toBeNull()
  })

  it('counts the subject tokens it refused, by reason', async () => {
    expect((await exchange(await idp.personToken(jane, { audience: 'some-other-api' }))).status).toBe(400)
    expect((await exchange(await idp.personToken(jane, { audience: 'yet-another-api' }))).status).toBe(400)
    expect((await exchange(await idp.personToken(jane, { audience: AUDIENCE, expiredSecondsAgo: 60 }))).status).toBe(400)
    const once = await idp.personToken(jane, { audience: AUDIENCE })
    expect((await exchange(once)).status).toBe(200)
    expect((await exchange(once)).json.error_description).toMatch(/already exchanged/)
    // Counts are written in batches: the first refusal at once, the rest a few seconds later.
    const counted = await until('the refusals counted', async () => {
      const { refusals } = await status()
      return refusals.audience?.count === 2 && refusals.expired?.count === 1 && refusals.replay?.count === 1 ? refusals : null
    })
    expect(Object.keys(counted).sort()).toEqual(['audience', 'expired', 'replay'])
    expect(Date.parse(counted.audience!.lastAt)).not.toBeNaN()
  })

  it('is in the list too', async () => {
    const res = await call(resourceRoutes('IdentityProvider').list, '/api/v1/identityproviders')
    expect(res.status, res.text).toBe(200)
    const listed = (res.json.items as { metadata: { name: string }; status: Status }[]).find((i) => i.metadata.name === 'relayed-sso')
    expect(listed?.status).toMatchObject({ phase: 'Ready', keys: { lastError: null } })
  })
})
