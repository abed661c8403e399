import { expect, type Page, test } from '@playwright/test'
import { DEMO_PASSWORDS, signInAs } from './support/sign-in'

// Each demo role signs in through the sign-in page in a browser of its own and sees what its role
// allows: the server refuses the rest, and the portal does not offer it.

const nav = (page: Page) => page.getByRole('navigation', { name: 'Main' })

test('a signed-out visit goes to the sign-in page, and a wrong password is refused', async ({ browser }) => {
  const context = await browser.newContext({ storageState: { cookies: [], origins: [] } })
  const page = await context.newPage()
  await page.goto('/tools')
  await expect(page).toHaveURL(/\/sign-in$/)
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible()
  await expect(page.getByRole('navigation', { name: 'Main' })).toHaveCount(0)
  await page.getByLabel('Email').fill('viewer@toolroom.local')
  await page.getByLabel('Password').fill('not the password')
  await page.getByRole('button', { name: 'Sign in', exact: true }).click()
  await expect(page.getByText(/wrong email or password/)).toBeVisible()
  expect((await page.request.get('/api/v1/tools')).status()).toBe(401)
  await page.screenshot({ path: '.data/test-reports/screenshots/sign-in.png', fullPage: true })
  await context.close()
})

test('viewer reads everything but is offered no changes', async ({ browser }) => {
  const { page, close, cspViolations } = await signInAs(browser, 'viewer')
  await expect(nav(page).getByRole('link', { name: 'Tools', exact: true })).toBeVisible()
  await expect(nav(page).getByRole('link', { name: 'Apply' })).toHaveCount(0)
  await expect(nav(page).getByRole('link', { name: 'People', exact: true })).toHaveCount(0)
  await page.goto('/apply')
  await expect(page.getByText('cannot apply manifests')).toBeVisible()
  await expect(page.getByRole('button', { name: /^apply$/i })).toHaveCount(0)
  await expect(page.getByLabel('Manifest')).toHaveCount(0)
  await page.goto('/people')
  await expect(page.getByText('cannot manage people')).toBeVisible()
  // A LanguageTool page has a "Refresh now" button for those who may change things.
  const servers = await (await page.request.get('/api/v1/languagetools?limit=1')).json()
  await page.goto(`/language-tools/${servers.items[0].id}`)
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
  await expect(page.getByRole('button', { name: /refresh now/i })).toHaveCount(0)
  // The server refuses the viewer's session too, even from our own origin.
  const write = await page.request.post('/api/v1/apply', {
    headers: { origin: new URL(page.url()).origin, 'content-type': 'application/yaml' },
    data: 'kind: Tool',
  })
  expect(write.status()).toBe(403)
  await page.screenshot({ path: '.data/test-reports/screenshots/role-viewer-apply.png', fullPage: true })
  expect(cspViolations).toEqual([])
  await close()
})

test('operator applies and refreshes, but does not manage people, policies or secrets', async ({ browser, request }) => {
  // An agent credential for the operator to see (and not be offered to revoke), issued by the admin session.
  const agents = await (await request.get('/api/v1/agents?limit=1')).json()
  const credential = `e2e-roles-${Date.now().toString(36)}`
  const issued = await request.post(`/api/v1/agents/${agents.items[0].id}/credentials`, {
    headers: { origin: process.env.E2E_BASE_URL! },
    data: { name: credential },
  })
  expect(issued.status()).toBe(201)
  const { page, close, cspViolations } = await signInAs(browser, 'operator')
  await expect(nav(page).getByRole('link', { name: 'Apply' })).toBeVisible()
  await expect(nav(page).getByRole('link', { name: 'People', exact: true })).toHaveCount(0)
  await page.goto('/apply')
  await expect(page.getByLabel('Manifest')).toBeVisible()
  await expect(page.getByText('SideEffectPolicy, Secret, and IdentityProvider documents need an admin.')).toBeVisible()
  // A manifest with an admin-only document is refused as a whole, naming the document and the rule.
  const tool = `e2e.operator_${Date.now().toString(36)}`
  await page
    .getByLabel('Manifest')
    .fill(
      [
        `apiVersion: toolroom.dev/v1alpha1\nkind: Tool\nmetadata: { name: ${tool}, namespace: e2e }\nspec: { type: function, description: d, inputSchema: { type: object } }`,
        'apiVersion: toolroom.dev/v1alpha1\nkind: SideEffectPolicy\nmetadata: { name: financial, namespace: e2e }\nspec: { level: financial, requiresApproval: false }',
      ].join('\n---\n'),
    )
  await page.getByRole('button', { name: 'Apply', exact: true }).click()
  const errors = page.getByTestId('apply-errors')
  await expect(errors).toContainText('The manifest was refused; nothing was written.')
  await expect(errors).toContainText('SideEffectPolicy resources can be changed by admins only (document 1)')
  await expect(errors.getByTestId('field-error')).toHaveCount(1)
  await expect(errors.getByTestId('field-error')).toContainText('admin-only-kind')
  await page.screenshot({ path: '.data/test-reports/screenshots/role-operator-admin-only-apply.png', fullPage: true })
  expect((await page.request.get(`/api/v1/tools/${tool}?namespace=e2e`)).status()).toBe(404)
  // The policy defaults can be read, not changed; a secret's page offers no rotation, and the server refuses one.
  await page.goto('/approvals/settings')
  await expect(page.getByText('Only admins change these policies.')).toBeVisible()
  await expect(page.getByLabel('Financial needs approval')).toBeDisabled()
  await expect(page.getByTestId('policy-row').getByRole('button', { name: 'Save' })).toHaveCount(0)
  const secrets = await (await page.request.get('/api/v1/secrets?limit=1')).json()
  await page.goto(`/secrets/${secrets.items[0].id}`)
  await expect(page.getByTestId('admin-only-note')).toBeVisible()
  await expect(page.getByRole('button', { name: 'Rotate values' })).toHaveCount(0)
  const rotate = await page.request.post(`/api/v1/secrets/${secrets.items[0].id}/rotate`, {
    headers: { origin: new URL(page.url()).origin },
    data: { stringData: { token: 'x' } },
  })
  expect(rotate.status()).toBe(403)
  expect((await rotate.json()).detail).toMatch(/^Secret resources can be changed by admins only/)
  const servers = await (await page.request.get('/api/v1/languagetools?limit=1')).json()
  await page.goto(`/language-tools/${servers.items[0].id}`)
  await expect(page.getByRole('button', { name: /refresh now/i })).toBeVisible()
  expect((await page.request.get('/api/v1/users')).status()).toBe(403)
  // Agent credentials: listed for everyone on the Access tokens page, issued and revoked by admins only.
  await page.goto('/tokens')
  const credentials = page.getByRole('region', { name: 'Agent credentials' })
  await expect(credentials.locator(`[data-testid="agent-credential-row"][data-name="${credential}"]`)).toContainText('active')
  await expect(credentials.getByRole('heading', { name: 'Issue an agent credential' })).toHaveCount(0)
  await expect(credentials.getByRole('button', { name: 'Revoke' })).toHaveCount(0)
  expect((await page.request.get('/api/v1/agent-credentials?status=active')).status()).toBe(200)
  expect(cspViolations).toEqual([])
  await close()
})

test('approver reads, is offered no resource changes, and no People page', async ({ browser }) => {
  const { page, close, cspViolations } = await signInAs(browser, 'approver')
  await expect(nav(page).getByRole('link', { name: 'Apply' })).toHaveCount(0)
  await expect(nav(page).getByRole('link', { name: 'People', exact: true })).toHaveCount(0)
  await page.goto('/tools')
  await expect(page.getByRole('heading', { level: 1, name: /tools/i })).toBeVisible()
  expect(cspViolations).toEqual([])
  await close()
})

test('admin manages people and API tokens; a new token is shown once and can be revoked', async ({ browser }) => {
  const { page, close, cspViolations } = await signInAs(browser, 'admin')
  await nav(page).getByRole('link', { name: 'People', exact: true }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'People' })).toBeVisible()
  for (const role of Object.keys(DEMO_PASSWORDS)) await expect(page.locator(`[data-testid="person-row"][data-email="${role}@toolroom.local"]`)).toBeVisible()
  const email = `new.${Date.now()}@toolroom.local`
  await page.getByLabel('Email').fill(email)
  await page.getByRole('button', { name: 'Add person' }).click()
  await expect(page.getByTestId('shown-once-value')).toHaveText(/\S{20,}/)
  await expect(page.locator(`[data-testid="person-row"][data-email="${email}"]`)).toBeVisible()
  await page.screenshot({ path: '.data/test-reports/screenshots/people.png', fullPage: true })

  await nav(page).getByRole('link', { name: 'Access tokens' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Access tokens' })).toBeVisible()
  const name = `e2e-ci-${Date.now()}`
  // The page also issues agent credentials, with a Name field of their own.
  const newToken = page.locator('section', { has: page.getByRole('heading', { name: 'Create an API token' }) })
  await newToken.getByLabel('Name', { exact: true }).fill(name)
  await newToken.getByLabel('write').check()
  await newToken.getByRole('button', { name: 'Create token' }).click()
  const token = (await page.getByTestId('shown-once-value').textContent())!
  expect(token).toMatch(/^trk_/)
  const row = page.locator(`[data-testid="token-row"][data-name="${name}"]`)
  await expect(row).toContainText('active')
  expect((await page.request.get('/api/v1/tools?limit=1', { headers: { authorization: `Bearer ${token}` } })).status()).toBe(200)
  await page.screenshot({ path: '.data/test-reports/screenshots/tokens.png', fullPage: true })
  page.once('dialog', (d) => void d.accept())
  await row.getByRole('button', { name: 'Revoke' }).click()
  await expect(row).toContainText('revoked')
  expect((await page.request.get('/api/v1/tools?limit=1', { headers: { authorization: `Bearer ${token}` } })).status()).toBe(401)

  await page.getByRole('button', { name: 'Sign out' }).click()
  await expect(page).toHaveURL(/\/sign-in$/)
  expect(cspViolations).toEqual([])
  await close()
})
