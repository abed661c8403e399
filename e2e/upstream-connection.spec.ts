import { createHash } from 'node:crypto'
import { expect, test } from '@playwright/test'
import pg from 'pg'

// A LanguageTool whose MCP server follows MCP authorization shows its connection on its page, with
// Connect / Reconnect / Disconnect (docs/design/gateway.md, "Connected upstreams"). The connected
// state is written straight into the e2e database as the callback stores it (the flow itself, with a
// real authorization server, is tests/integration/upstream-mcp-authorization.test.ts).
const BASE_URL = process.env.E2E_BASE_URL!
const SCREENSHOTS = '.data/test-reports/screenshots'
const NS = 'e2e-connect'
const NAME = 'connected-mcp'
// Nothing listens there: Connect fails, saying why.
const ENDPOINT = 'http://127.0.0.1:9/mcp'
let db: pg.Client

test.beforeAll(async ({ request }) => {
  db = new pg.Client({ connectionString: process.env.DATABASE_URL })
  await db.connect()
  const applied = await request.post('/api/v1/apply', {
    headers: { origin: BASE_URL, 'content-type': 'application/yaml' },
    data: `apiVersion: toolroom.dev/v1alpha1
kind: LanguageTool
metadata: { name: ${NAME}, namespace: ${NS} }
spec:
  endpoint: "${ENDPOINT}"
  description: An MCP server behind MCP authorization
  auth:
    type: oauth2
    oauth2: { grantType: authorization_code, scopes: [tools.read, tickets.write] }
`,
  })
  expect(applied.status(), await applied.text()).toBe(200)
})

test.afterAll(async () => {
  await db.query(`DELETE FROM "UpstreamConnection" WHERE namespace = $1`, [NS])
  await db.end()
})

test('the connection card: not connected, Connect failing with the reason, connected with Reconnect and Disconnect', async ({ page: p }) => {
  await p.setViewportSize({ width: 1440, height: 900 })
  await p.goto(`/language-tools/${NAME}?namespace=${NS}`)
  const card = p.locator('#connection')
  await expect(card.getByText('not connected')).toBeVisible()
  await expect(card.getByText('needs connecting: an operator connects it from its page')).toBeVisible()
  await card.getByRole('button', { name: 'Connect' }).click()
  await expect(card.getByText(/the server cannot be connected/)).toBeVisible({ timeout: 20_000 })
  await p.screenshot({ path: `${SCREENSHOTS}/language-tool-connection-not-connected-1440.png`, fullPage: true })

  const identity = { endpoint: ENDPOINT, clientId: null, secret: null, scopes: ['tickets.write', 'tools.read'] }
  await db.query(
    `INSERT INTO "UpstreamConnection" (id, namespace, name, "configKey", "authorizationServer", metadata, resource, scopes, "clientId", ciphertext, "keyId",
       "expiresAt", "refreshAt", "connectedAt", "connectedBy", "refreshedAt")
     VALUES (gen_random_uuid(), $1, $2, $3, 'https://auth.example.com', '{}', $4, $5, 'toolroom-e2e', '\\x00', 'e2e',
       now() + interval '50 minutes', now() + interval '45 minutes', now() - interval '2 hours', 'admin@toolroom.test', now() - interval '10 minutes')`,
    [NS, NAME, createHash('sha256').update(JSON.stringify(identity)).digest('hex'), ENDPOINT, ['tools.read', 'tickets.write']],
  )
  await p.reload()
  await expect(card.getByText('connected', { exact: true })).toBeVisible()
  await expect(card.getByText('tools.read tickets.write')).toBeVisible()
  await expect(card.getByRole('button', { name: 'Reconnect' })).toBeVisible()
  await p.screenshot({ path: `${SCREENSHOTS}/language-tool-connection-connected-1440.png`, fullPage: true })
  await p.setViewportSize({ width: 390, height: 844 })
  await card.scrollIntoViewIfNeeded()
  await p.screenshot({ path: `${SCREENSHOTS}/language-tool-connection-connected-390.png`, fullPage: true })

  await card.getByRole('button', { name: 'Disconnect' }).click()
  await expect(card.getByText('not connected')).toBeVisible()
  expect((await db.query(`SELECT count(*)::int AS n FROM "UpstreamConnection" WHERE namespace = $1`, [NS])).rows[0].n).toBe(0)
})
