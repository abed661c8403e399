import { expect, test } from '@playwright/test'

// An admin issues gateway credentials on the agent page and on the Access tokens page, sees each
// token once, the agent uses it at /mcp, and after revocation (on either page) the gateway refuses it.
test('issue, use and revoke an agent credential', async ({ page }) => {
  const list = await (await page.request.get('/api/v1/agents?limit=1')).json()
  const agent = list.items[0]
  await page.goto(`/agents/${agent.id}`)
  const card = page.locator('section', { has: page.getByRole('heading', { name: 'Gateway credentials' }) })
  const name = `e2e-${Date.now()}`
  await card.getByLabel('Name').fill(name)
  await card.getByRole('button', { name: 'Issue credential' }).click()
  const token = (await card.getByTestId('shown-once-value').textContent())!.trim()
  expect(token).toMatch(/^tra_/)
  await page.screenshot({ path: '.data/test-reports/screenshots/agent-credentials.png', fullPage: false })

  const list1 = { jsonrpc: '2.0', id: 1, method: 'tools/list' }
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' }
  const ok = await page.request.post('/mcp', { headers, data: list1 })
  expect(ok.status()).toBe(200)
  expect((await ok.json()).result.tools.length).toBeGreaterThan(0)

  await card.getByRole('button', { name: 'Done' }).click()
  await expect(card.getByTestId('shown-once-value')).toHaveCount(0)
  page.once('dialog', (d) => void d.accept())
  await card
    .getByRole('row', { name: new RegExp(name) })
    .getByRole('button', { name: 'Revoke' })
    .click()
  await expect(card.getByRole('row', { name: new RegExp(name) }).getByText('revoked')).toBeVisible()
  await expect.poll(async () => (await page.request.post('/mcp', { headers, data: list1 })).status(), { timeout: 10_000 }).toBe(401)
})

test('issue a credential on the Access tokens page, revoke it there, and see it revoked on the agent page', async ({ page }) => {
  const agents = await (await page.request.get('/api/v1/agents?limit=1')).json()
  const agent = agents.items[0]
  const ref = `${agent.metadata.namespace}/${agent.metadata.name}`
  const name = `e2e-access-${Date.now()}`
  await page.goto('/tokens')
  const section = page.getByRole('region', { name: 'Agent credentials' })
  const issueCard = section.locator('section', { has: page.getByRole('heading', { name: 'Issue an agent credential' }) })
  await issueCard.getByLabel('Agent').fill(ref)
  await issueCard.getByLabel('Name').fill(name)
  await expect(issueCard.getByRole('button', { name: 'Issue credential' })).toBeEnabled()
  await issueCard.getByRole('button', { name: 'Issue credential' }).click()
  await expect(issueCard.getByTestId('shown-once')).toContainText(`Credential “${name}” for agent ${ref}`)
  const token = (await issueCard.getByTestId('shown-once-value').textContent())!.trim()
  expect(token).toMatch(/^tra_/)
  const row = section.locator(`[data-testid="agent-credential-row"][data-name="${name}"]`)
  await expect(row).toHaveAttribute('data-agent', ref)
  await expect(row).toContainText('active')
  await page.screenshot({ path: '.data/test-reports/screenshots/access-tokens-agent-credentials.png', fullPage: true })

  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' }
  const toolsList = { jsonrpc: '2.0', id: 1, method: 'tools/list' }
  expect((await page.request.post('/mcp', { headers, data: toolsList })).status()).toBe(200)

  // Shown once: after "Done" the token is nowhere on the page, and the answers never carry it.
  await issueCard.getByRole('button', { name: 'Done' }).click()
  await expect(issueCard.getByTestId('shown-once')).toHaveCount(0)
  expect(await page.content()).not.toContain(token)
  expect(await (await page.request.get(`/api/v1/agent-credentials?agent=${encodeURIComponent(ref)}`)).text()).not.toContain(token)

  // The agent page (reached in the app, so its list is cached) shows it active ...
  await row.getByRole('link', { name: ref }).click()
  const card = page.locator('section', { has: page.getByRole('heading', { name: 'Gateway credentials' }) })
  await expect(card.locator(`[data-testid="agent-credential-row"][data-name="${name}"]`)).toHaveAttribute('data-state', 'active')

  // ... and after a revocation on the Access tokens page, revoked: both lists share one query-key root.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Access tokens' }).click()
  await section.getByLabel('Status').selectOption('active')
  await expect(page).toHaveURL(/status=active/)
  page.once('dialog', (d) => void d.accept())
  await row.getByRole('button', { name: 'Revoke' }).click()
  await expect(row).toHaveCount(0)
  await section.getByLabel('Status').selectOption('revoked')
  await expect(row).toContainText('revoked')
  await expect(row.getByRole('button', { name: 'Revoke' })).toHaveCount(0)
  await row.getByRole('link', { name: ref }).click()
  await expect(card.locator(`[data-testid="agent-credential-row"][data-name="${name}"]`)).toHaveAttribute('data-state', 'revoked')
  await expect.poll(async () => (await page.request.post('/mcp', { headers, data: toolsList })).status(), { timeout: 10_000 }).toBe(401)
})
