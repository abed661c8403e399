import { expect, test } from '@playwright/test'
import pg from 'pg'
import { type AuthorizationServer, type ProtectedMcpServer, startAuthorizationServer, startProtectedMcpServer } from '../tests/support/mcp-authorization'

// A person's own Connections page (docs/design/access.md#connected-accounts): a LanguageTool with
// `auth.oauth2.connect: perPerson` is listed not connected; Connect goes through a real authorization
// server (oidc-provider, its own login and consent pages) in Chromium and back; the page then shows it
// connected with the scopes granted; Disconnect forgets it.
const BASE_URL = process.env.E2E_BASE_URL!
const SCREENSHOTS = '.data/test-reports/screenshots'
const NS = 'e2e-people'
const NAME = 'my-tickets'
let as: AuthorizationServer
let upstream: ProtectedMcpServer
let db: pg.Client

test.beforeAll(async ({ request }) => {
  db = new pg.Client({ connectionString: process.env.DATABASE_URL })
  await db.connect()
  as = await startAuthorizationServer(['tickets.read'])
  upstream = await startProtectedMcpServer(as, ['tickets.read'])
  const applied = await request.post('/api/v1/apply', {
    headers: { origin: BASE_URL, 'content-type': 'application/yaml' },
    data: `apiVersion: toolroom.dev/v1alpha1
kind: LanguageTool
metadata: { name: ${NAME}, namespace: ${NS} }
spec:
  endpoint: "${upstream.endpoint}"
  description: Tickets, as each person sees them
  auth:
    type: oauth2
    oauth2: { grantType: authorization_code, connect: perPerson, scopes: [tickets.read] }
`,
  })
  expect(applied.status(), await applied.text()).toBe(200)
})

test.afterAll(async () => {
  await db.query(`DELETE FROM "PersonConnection" WHERE namespace = $1`, [NS])
  await db.end()
  await upstream?.close()
  await as?.close()
})

test('Connections: not connected, connected through the authorization server in the browser, disconnected', async ({ page: p }) => {
  await p.setViewportSize({ width: 1440, height: 900 })
  await p.goto(`/connections?languageTool=${encodeURIComponent(`${NS}/${NAME}`)}`)
  await expect(p.getByRole('heading', { name: 'Your connections' })).toBeVisible()
  const card = p.getByTestId(`connection-${NS}-${NAME}`)
  await expect(card.getByText('not connected')).toBeVisible()
  await expect(card.getByText('Tickets, as each person sees them')).toBeVisible()
  await p.screenshot({ path: `${SCREENSHOTS}/connections-not-connected-1440.png`, fullPage: true })

  await card.getByRole('button', { name: 'Connect' }).click()
  // oidc-provider's own pages: sign in (any login), then consent.
  await p.waitForURL(new RegExp(`^${as.issuer}/interaction/`))
  await p.locator('input[name=login]').fill('jane@upstream.test')
  await p.locator('input[name=password]').fill('any')
  await p.locator('button[type=submit]').click()
  await p.locator('button[type=submit]').click()
  await p.waitForURL(/\/connections\?languageTool=.*connected=1/)
  const back = p.getByTestId(`connection-${NS}-${NAME}`)
  await expect(back.getByText('connected', { exact: true })).toBeVisible()
  await expect(back.getByText('tickets.read')).toBeVisible()
  await expect(back.getByText('Connected: calls made for you now use your account.')).toBeVisible()
  await expect(back.getByRole('button', { name: 'Reconnect' })).toBeVisible()
  await p.screenshot({ path: `${SCREENSHOTS}/connections-connected-1440.png`, fullPage: true })
  await p.setViewportSize({ width: 390, height: 844 })
  await back.scrollIntoViewIfNeeded()
  await p.screenshot({ path: `${SCREENSHOTS}/connections-connected-390.png`, fullPage: true })
  expect((await db.query(`SELECT count(*)::int AS n FROM "PersonConnection" WHERE namespace = $1`, [NS])).rows[0].n).toBe(1)

  await back.getByRole('button', { name: 'Disconnect' }).click()
  await expect(back.getByText('not connected')).toBeVisible()
  expect((await db.query(`SELECT count(*)::int AS n FROM "PersonConnection" WHERE namespace = $1`, [NS])).rows[0].n).toBe(0)
})
