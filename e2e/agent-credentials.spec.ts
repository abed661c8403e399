import { expect, test } from '@playwright/test'

// An admin issues a gateway credential on the agent page, sees the token once, the agent uses it at
// /mcp, and after revocation the gateway refuses it.
test('issue, use and revoke an agent credential', async ({ page }) => {
  const list = await (await page.request.get('/api/v1/agents?limit=1')).json()
  const agent = list.items[0]
  await page.goto(`/agents/${agent.id}`)
  const card = page.locator('section', { has: page.getByRole('heading', { name: 'Gateway credentials' }) })
  const name = `e2e-${Date.now()}`
  await card.getByLabel('Name').fill(name)
  await card.getByRole('button', { name: 'Issue credential' }).click()
  const token = (await card.getByTestId('issued-token').textContent())!.trim()
  expect(token).toMatch(/^tra_/)
  await page.screenshot({ path: '.data/test-reports/screenshots/agent-credentials.png', fullPage: false })

  const list1 = { jsonrpc: '2.0', id: 1, method: 'tools/list' }
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' }
  const ok = await page.request.post('/mcp', { headers, data: list1 })
  expect(ok.status()).toBe(200)
  expect((await ok.json()).result.tools.length).toBeGreaterThan(0)

  await card.getByRole('button', { name: 'Done' }).click()
  await expect(card.getByTestId('issued-token')).toHaveCount(0)
  page.once('dialog', (d) => void d.accept())
  await card.getByRole('row', { name: new RegExp(name) }).getByRole('button', { name: 'Revoke' }).click()
  await expect(card.getByRole('row', { name: new RegExp(name) }).getByText('revoked')).toBeVisible()
  await expect.poll(async () => (await page.request.post('/mcp', { headers, data: list1 })).status(), { timeout: 10_000 }).toBe(401)
})
