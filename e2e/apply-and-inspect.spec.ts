import { expect, test } from '@playwright/test'

// An operator applies a manifest on the Apply page, then finds the granted tool on the agent page
// with its provenance and the unit it is inherited from.
const suffix = Date.now().toString(36)
const manifest = `apiVersion: toolroom.dev/v1alpha1
kind: Tool
metadata: { name: e2e_${suffix}.lookup_order, namespace: e2e }
spec:
  type: rest
  description: Look up an order by its number.
  endpoint: { method: GET, url: "https://orders.example.test/api/orders" }
  inputSchema:
    type: object
    required: [orderNumber]
    properties: { orderNumber: { type: string } }
  sideEffects: { level: read_only }
---
apiVersion: toolroom.dev/v1alpha1
kind: Unit
metadata: { name: e2e-unit-${suffix}, namespace: e2e }
spec: { grants: [e2e_${suffix}.lookup_order] }
---
apiVersion: toolroom.dev/v1alpha1
kind: Agent
metadata: { name: e2e-agent-${suffix}, namespace: e2e }
spec: { unit: e2e-unit-${suffix} }
`

test('apply a manifest, then see the new tool on the agent page with its provenance', async ({ page }) => {
  await page.goto('/apply')
  await page.getByLabel('Manifest').fill(manifest)

  await page.getByRole('button', { name: 'Validate' }).click()
  await expect(page.getByText('created').first()).toBeVisible()
  // a dry run writes nothing
  const before = await page.request.get(`/api/v1/agents/e2e-agent-${suffix}?namespace=e2e`)
  expect(before.status()).toBe(404)

  await page.getByRole('button', { name: 'Apply' }).click()
  // The applied document's row links the agent first; the dry run's impact, kept on screen, links it again.
  const agentLink = page.getByRole('link', { name: new RegExp(`e2e-agent-${suffix}`) }).first()
  await expect(agentLink).toBeVisible()
  await agentLink.click()

  await expect(page).toHaveURL(/\/agents\//)
  const row = page.locator(`[data-testid="tool-name-card"][data-tool-name="e2e_${suffix}.lookup_order"]`)
  await expect(row).toBeVisible()
  await expect(row).toHaveAttribute('data-provenance', 'grant')
  await expect(row.getByRole('link', { name: new RegExp(`e2e-unit-${suffix}`) })).toBeVisible()
  await page.screenshot({ path: '.data/test-reports/screenshots/agent-after-apply.png', fullPage: true })
})

test('the Apply page lists every validation error and writes nothing', async ({ page }) => {
  const other = `${suffix}x`
  await page.goto('/apply')
  await page.getByLabel('Manifest').fill(manifest.replaceAll(suffix, other).replace(`e2e_${other}.lookup_order, namespace`, `E2E.Lookup, namespace`))
  await page.getByRole('button', { name: 'Apply' }).click()
  await expect(page.getByText('canonical-id')).toBeVisible()
  // the valid unit and agent in the same manifest were not written either
  expect((await page.request.get(`/api/v1/units/e2e-unit-${other}?namespace=e2e`)).status()).toBe(404)
  expect((await page.request.get(`/api/v1/agents/e2e-agent-${other}?namespace=e2e`)).status()).toBe(404)
})
