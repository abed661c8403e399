import { spawnSync } from 'node:child_process'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { type APIRequestContext, expect, type Page, request as playwrightRequest, test } from '@playwright/test'
import { ADMIN_STATE } from './global-setup'
import { builtEntry } from './support/built'

// A failing tool leads somewhere: two agents call a REST tool through the e2e server's gateway; its
// upstream fails most calls and echoes the bearer token the gateway injected. After the rollup (the
// worker's code), an operator goes from the dashboard's top failing tools to the failed calls, opens
// one in the drawer (what the upstream answered, the secret redacted), follows it to the tool's
// failure view (top errors, agents, latest failures) and opens a failure from there.

test.describe.configure({ mode: 'serial' })

const BASE_URL = process.env.E2E_BASE_URL!
const suffix = Date.now().toString(36)
const SCREENSHOTS = '.data/test-reports/screenshots'
const SECRET = `sk-e2e-ECHOED-${suffix}-7f3a9c`
const namespace = `e2e-failures-${suffix}`
const toolId = `flaky_${suffix}.lookup`
const toolKey = `Tool/${namespace}/${toolId}`
const FAILURES = 12

let upstream: http.Server
let admin: APIRequestContext

async function startEchoingUpstream(): Promise<string> {
  let hits = 0
  upstream = http.createServer((req, res) => {
    hits++
    // Two of every three calls fail, quoting the request back, credential included.
    if (hits % 3 !== 0)
      return void res
        .writeHead(500, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: 'lookup backend down', request: { authorization: req.headers.authorization, path: req.url } }))
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"found":true}')
  })
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve))
  return `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`
}

async function issueCredential(agent: string): Promise<string> {
  const found = await admin.get(`/api/v1/agents/${agent}?namespace=${namespace}`)
  expect(found.status()).toBe(200)
  const credential = await admin.post(`/api/v1/agents/${(await found.json()).id}/credentials`, { data: { name: 'e2e failures' } })
  expect(credential.status(), await credential.text()).toBe(201)
  return (await credential.json()).token
}

test.beforeAll(async () => {
  const url = await startEchoingUpstream()
  admin = await playwrightRequest.newContext({ baseURL: BASE_URL, storageState: ADMIN_STATE, extraHTTPHeaders: { origin: BASE_URL } })
  const manifest = `apiVersion: toolroom.dev/v1alpha1
kind: Secret
metadata: { name: lookup-token, namespace: ${namespace} }
spec: { type: bearer, stringData: { token: "${SECRET}" } }
---
apiVersion: toolroom.dev/v1alpha1
kind: Tool
metadata: { name: ${toolId}, namespace: ${namespace} }
spec:
  type: rest
  description: Looks a customer up in a backend that is often down.
  endpoint: { method: GET, url: "${url}/customers/{id}", auth: { type: bearer, secretRef: { name: lookup-token } } }
  inputSchema: { type: object, required: [id], properties: { id: { type: string } } }
  sideEffects: { level: read_only }
  safety: { rateLimit: { callsPerMinute: 1000 } }
---
apiVersion: toolroom.dev/v1alpha1
kind: Agent
metadata: { name: support-bot, namespace: ${namespace} }
spec: { grants: [${toolId}] }
---
apiVersion: toolroom.dev/v1alpha1
kind: Agent
metadata: { name: billing-bot, namespace: ${namespace} }
spec: { grants: [${toolId}] }
`
  const applied = await admin.post('/api/v1/apply', { headers: { 'content-type': 'application/yaml' }, data: manifest })
  expect(applied.status(), await applied.text()).toBe(200)
  const tokens = [await issueCredential('support-bot'), await issueCredential('billing-bot')]
  // 18 calls through the gateway's REST endpoint as the agents make them (their credential, no
  // session), 12 of them failing: 9 of support-bot's 14, 3 of billing-bot's 4.
  const agents = await playwrightRequest.newContext({ baseURL: BASE_URL })
  for (let i = 0; i < (FAILURES * 3) / 2; i++) {
    const token = tokens[i % 4 === 3 ? 1 : 0]
    const res = await agents.post(`/api/v1/gateway/tools/${toolId}/call`, {
      headers: { authorization: `Bearer ${token}` },
      data: { arguments: { id: `c-${i}` } },
    })
    expect([200, 502]).toContain(res.status())
  }
  await agents.dispose()
  const rollup = spawnSync(process.execPath, [builtEntry('stats-rollup')], { env: process.env, encoding: 'utf8' })
  expect(rollup.status, rollup.stderr).toBe(0)
})

test.afterAll(async () => {
  await admin?.dispose()
  await new Promise((resolve) => upstream?.close(resolve))
})

function watchErrors(page: Page): string[] {
  const errors: string[] = []
  page.on('pageerror', (e) => errors.push(e.message))
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()))
  return errors
}

async function expectNoSecret(page: Page) {
  expect(await page.content()).not.toContain(SECRET)
}

for (const viewport of [
  { name: 'desktop', width: 1440, height: 900 },
  { name: 'phone', width: 390, height: 844 },
]) {
  test(`dashboard → failing tool → failed calls → call drawer → tool failure view (${viewport.name})`, async ({ page }) => {
    await page.setViewportSize(viewport)
    const errors = watchErrors(page)

    // The dashboard's top failing tools name this tool; its id leads to its failed calls.
    await page.goto('/')
    const failing = page.locator('section').filter({ has: page.getByRole('heading', { name: 'Top failing tools' }) })
    const entry = failing.getByRole('link', { name: toolId, exact: true })
    await expect(entry).toBeVisible()
    await entry.scrollIntoViewIfNeeded()
    await page.screenshot({ path: `${SCREENSHOTS}/failures-dashboard-${viewport.name}.png`, fullPage: true })
    await entry.click()
    await expect(page).toHaveURL(
      (url) => url.pathname === '/calls' && url.searchParams.get('toolKey') === toolKey && url.searchParams.get('outcome') === 'failed',
    )
    const rows = page.locator('tr[data-call-id]')
    await expect(rows).toHaveCount(FAILURES)
    await expect(page.locator('tbody').getByText('succeeded')).toHaveCount(0)

    // A call opens in the drawer, beside its row: what the upstream answered, the token redacted.
    const row = rows.nth(2)
    const callId = await row.getAttribute('data-call-id')
    const opener = row.getByRole('button', { name: /^Open the call of / })
    await opener.click()
    const drawer = page.getByTestId('call-drawer')
    await expect(drawer).toBeVisible()
    await expect(drawer).toBeFocused()
    await expect(drawer.getByText(callId!)).toBeVisible()
    await expect(drawer.getByTestId('call-error')).toContainText('upstream_status: the endpoint answered 500 Internal Server Error')
    const excerpt = drawer.getByTestId('upstream-excerpt')
    await expect(excerpt).toContainText('"error": "lookup backend down"')
    await expect(excerpt).toContainText('Bearer [REDACTED]')
    await expect(row).toHaveAttribute('aria-current', 'true')
    // The drawer takes the screen's whole height (a list's spacing once cut 16 px off it).
    expect((await drawer.boundingBox())!.height).toBe(viewport.height)
    if (viewport.name === 'desktop') {
      // On a wide screen the list makes room: the list and the row stay in view left of the drawer.
      const list = page.locator('section').filter({ has: rows.first() })
      const [listBox, openerBox, drawerBox] = [await list.boundingBox(), await opener.boundingBox(), await drawer.boundingBox()]
      expect(listBox!.x + listBox!.width).toBeLessThanOrEqual(drawerBox!.x + 1)
      expect(openerBox!.x + openerBox!.width).toBeLessThanOrEqual(drawerBox!.x)
    }
    await expectNoSecret(page)
    await page.screenshot({ path: `${SCREENSHOTS}/failures-call-drawer-${viewport.name}.png` })

    // Escape closes it and gives focus back to the row that opened it.
    await page.keyboard.press('Escape')
    await expect(drawer).toHaveCount(0)
    await expect(opener).toBeFocused()
    await expect(page).toHaveURL((url) => !url.searchParams.has('call'))

    // The call's tool id is a link to the tool; from the drawer, "Why this tool fails" opens its failure view.
    await expect(row.getByRole('link', { name: toolId, exact: true })).toHaveAttribute('href', `/tools/${encodeURIComponent(toolId)}?namespace=${namespace}`)
    await opener.click()
    await drawer.getByRole('link', { name: 'Why this tool fails' }).click()
    await expect(page).toHaveURL((url) => url.pathname === `/tools/${toolId}` && url.hash === '#failures')
    const view = page.locator('#failures')
    await expect(view.getByRole('heading', { name: 'Failures, last 7 days' })).toBeVisible()
    const errorRow = view.getByTestId('failure-error-row')
    await expect(errorRow).toHaveCount(1)
    await expect(errorRow).toContainText('upstream_status')
    await expect(errorRow).toContainText('the endpoint answered 500 Internal Server Error')
    await expect(errorRow).toContainText(String(FAILURES))
    // When it was first and last seen: the calls were all made just now, in this hour's bucket or, when
    // the hour turned since, the one before (shown from its start).
    await expect(errorRow.getByTestId('failure-error-seen')).toHaveText(/^first seen (this hour|1 hour ago) · last seen (this hour|1 hour ago)$/)
    // The chart is named, says in words what it shows, and opens as a table.
    const chart = view.getByRole('img', { name: 'Failure rate per day' })
    await expect(chart).toBeVisible()
    await expect(view.getByTestId('chart').locator('figcaption')).toContainText(/^Failure rate per day, .*failure rate: highest \d+(\.\d)?%/)
    await view.getByText('Show as a table').click()
    await expect(view.getByRole('table', { name: 'Failure rate per day' }).getByRole('row')).toHaveCount(8)
    const agentRows = view.getByTestId('failure-agent-row')
    await expect(agentRows).toHaveCount(2)
    await expect(agentRows.first()).toContainText(`${namespace}/support-bot`)
    await expect(view.locator('[data-chart="bars"] .recharts-bar-rectangle').first()).toBeVisible()
    const recent = view.getByRole('list', { name: 'Latest failed calls' }).getByRole('button')
    await expect(recent).toHaveCount(10)
    await expect(recent.first()).toContainText('Bearer [REDACTED]')
    await view.scrollIntoViewIfNeeded()
    await page.waitForLoadState('networkidle')
    await page.screenshot({ path: `${SCREENSHOTS}/failures-tool-view-${viewport.name}.png`, fullPage: true })

    // A failure listed there opens in the same drawer.
    await recent.nth(1).click()
    await expect(drawer).toBeVisible()
    await expect(drawer.getByTestId('upstream-excerpt')).toContainText('Bearer [REDACTED]')
    await drawer.getByRole('button', { name: 'Close the call' }).click()
    await expect(drawer).toHaveCount(0)
    await expect(recent.nth(1)).toBeFocused()
    await expectNoSecret(page)
    expect(errors).toEqual([])
  })
}

test('the failure view says so when a tool has not failed', async ({ page }) => {
  const errors = watchErrors(page)
  const tools = await (await page.request.get('/api/v1/tools?limit=200')).json()
  const quiet = (
    tools.items as Array<{ metadata: { name: string; namespace: string }; status?: { totalCalls7d?: number; failureRate7d?: number | null } }>
  ).find((t) => !t.status?.failureRate7d)
  expect(quiet).toBeTruthy()
  await page.goto(`/tools/${quiet!.metadata.name}?namespace=${quiet!.metadata.namespace}`)
  await expect(page.locator('#failures').getByText('No failed calls in the last 7 days')).toBeVisible()
  expect(errors).toEqual([])
})
