import { expect, type Page, test } from '@playwright/test'
import { openAs } from './support/sign-in'
import { holdScripts } from './support/hold-scripts'

// The portal's frame and finishing touches, as people use them: the menu on a phone, the skip link
// and focus rings, the global search, sortable lists, the 404, a role change that asks first, agent
// credentials that expire by default, and times that say their zone.

const SCREENSHOTS = '.data/test-reports/screenshots'
const nav = (page: Page) => page.getByRole('navigation', { name: 'Main' })

test('on a phone the navigation folds into a menu that opens, closes with Escape, and closes on the way to a page', async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } })
  const page = await context.newPage()
  await page.goto('/tools')
  await expect(page.getByRole('heading', { level: 1, name: 'Tools' })).toBeVisible()
  await expect(nav(page)).toBeHidden()
  const menu = page.getByRole('button', { name: 'Menu', exact: true })
  await expect(menu).toHaveAttribute('aria-expanded', 'false')
  await menu.click()
  await expect(menu).toHaveAttribute('aria-expanded', 'true')
  await expect(nav(page)).toBeVisible()
  // The page in view has the focus, so the next Tab goes on from where the reader is.
  await expect(nav(page).getByRole('link', { name: 'Tools', exact: true })).toBeFocused()
  await page.screenshot({ path: `${SCREENSHOTS}/menu-phone.png` })
  await page.keyboard.press('Escape')
  await expect(nav(page)).toBeHidden()
  await expect(menu).toBeFocused()
  await menu.click()
  await nav(page).getByRole('link', { name: 'Connectors', exact: true }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Connectors' })).toBeVisible()
  await expect(nav(page)).toBeHidden()
  await context.close()
})

test('a skip link leads past the navigation, and every control shows where the focus is', async ({ page }) => {
  await page.goto('/agents')
  await expect(page.getByRole('heading', { level: 1, name: 'Agents' })).toBeVisible()
  await page.keyboard.press('Tab')
  const skip = page.getByRole('link', { name: 'Skip to content' })
  await expect(skip).toBeFocused()
  await expect(skip).toBeVisible()
  await page.keyboard.press('Enter')
  await expect(page.locator('main#main')).toBeFocused()
  // The next Tab lands in the page, not the navigation.
  await page.keyboard.press('Tab')
  expect(await page.evaluate(() => Boolean(document.activeElement?.closest('main')))).toBe(true)
  // Every control that takes the focus draws a ring (an outline of at least 2 px).
  const rings: string[] = []
  for (let i = 0; i < 12; i++) {
    const ring = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement
      const s = getComputedStyle(el)
      return `${el.tagName}:${s.outlineStyle}:${s.outlineWidth}`
    })
    rings.push(ring)
    await page.keyboard.press('Tab')
  }
  expect(rings.filter((r) => !/:solid:([2-9]|\d\d)/.test(r) && !r.startsWith('BODY'))).toEqual([])
})

test('Ctrl-K pressed before the page has hydrated opens the palette once it has', async ({ page }) => {
  const release = await holdScripts(page)
  await page.goto('/', { waitUntil: 'commit' })
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible()
  await page.keyboard.press('Control+k')
  await expect(page.getByTestId('search-palette')).toHaveCount(0)
  release()
  await expect(page.getByTestId('search-palette')).toBeVisible()
  await expect(page.getByRole('combobox', { name: 'Search resources, approvals and calls' })).toBeFocused()
})

test('Ctrl-K searches resources, approvals and calls, and Enter opens the one chosen', async ({ page }) => {
  await page.goto('/')
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible()
  await page.keyboard.press('Control+k')
  const palette = page.getByTestId('search-palette')
  await expect(palette).toBeVisible()
  const box = page.getByRole('combobox', { name: 'Search resources, approvals and calls' })
  await expect(box).toBeFocused()
  await box.fill('schedule_pay')
  const option = palette.getByRole('option').filter({ hasText: 'erp.schedule_payment' }).first()
  await expect(option).toBeVisible()
  await page.screenshot({ path: `${SCREENSHOTS}/search.png` })
  // The arrows move the active option; Enter opens it.
  while ((await box.getAttribute('aria-activedescendant')) !== (await option.getAttribute('id'))) await page.keyboard.press('ArrowDown')
  await page.keyboard.press('Enter')
  await expect(page).toHaveURL(/\/tools\/[0-9a-f-]{36}$/)
  await expect(page.getByRole('heading', { level: 1, name: 'erp.schedule_payment' })).toBeVisible()
  // Escape closes it and gives the focus back.
  await page.getByRole('button', { name: /^Search/ }).click()
  await expect(palette).toBeVisible()
  await page.keyboard.press('Escape')
  await expect(palette).toHaveCount(0)
  // The search API itself: hostile input gets problem+json naming the field.
  for (const q of ['', 'x'.repeat(201)]) {
    const res = await page.request.get(`/api/v1/search?q=${encodeURIComponent(q)}`)
    expect(res.status()).toBe(400)
    expect((await res.json()).errors[0]).toMatchObject({ field: 'q' })
  }
  const odd = await page.request.get(`/api/v1/search?q=${encodeURIComponent("%' OR 1=1 --\u202e")}`)
  expect(odd.status()).toBe(200)
  expect((await odd.json()).resources).toEqual([])
})

test('lists sort by their columns, across pages, and keep the order in the address', async ({ page }) => {
  await page.goto('/tools')
  const names = () => page.getByTestId('tool-row').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-tool-name')!))
  await expect(page.getByTestId('tool-row').first()).toBeVisible()
  const header = page.getByRole('columnheader', { name: /^Tool/ })
  await expect(header).toHaveAttribute('aria-sort', 'none')
  await header.getByRole('button').click()
  await expect(page).toHaveURL(/sort=name/)
  await expect(header).toHaveAttribute('aria-sort', 'ascending')
  const api = await (await page.request.get('/api/v1/tools?sort=name&limit=50')).json()
  await expect.poll(names).toEqual(api.items.map((t: { metadata: { name: string } }) => t.metadata.name))
  await header.getByRole('button').click()
  await expect(page).toHaveURL(/sort=-name/)
  await expect(header).toHaveAttribute('aria-sort', 'descending')
  const reversed = await (await page.request.get('/api/v1/tools?sort=-name&limit=50')).json()
  await expect.poll(names).toEqual(reversed.items.map((t: { metadata: { name: string } }) => t.metadata.name))
  await page.reload()
  await expect(page.getByRole('columnheader', { name: /^Tool/ })).toHaveAttribute('aria-sort', 'descending')
})

test('an address that leads nowhere gets a 404 page with the way back', async ({ page, browser }) => {
  const response = await page.goto('/no/such/page')
  expect(response?.status()).toBe(404)
  await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible()
  await expect(nav(page)).toBeVisible()
  await page.getByTestId('not-found').getByRole('link', { name: 'Tools' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Tools' })).toBeVisible()
  // A resource that does not exist is the same 404, not a page titled with the address's id.
  for (const path of [
    '/agents/no-such-agent',
    '/tools/00000000-0000-4000-8000-000000000000',
    '/units/nope?namespace=x',
    '/language-tools/gone',
    '/connectors/none',
    '/secrets/none',
  ]) {
    expect((await page.goto(path))?.status(), path).toBe(404)
    await expect(page.getByRole('heading', { level: 1, name: 'Page not found' }), path).toBeVisible()
  }
  // Signed out, it offers the sign-in page.
  const context = await browser.newContext({ storageState: { cookies: [], origins: [] } })
  const anonymous = await context.newPage()
  expect((await anonymous.goto('/no/such/page'))?.status()).toBe(404)
  await expect(anonymous.getByRole('link', { name: 'Sign in' })).toBeVisible()
  await context.close()
})

test("changing someone's role asks first; Cancel changes nothing", async ({ page }) => {
  const email = `e2e-role-${Date.now().toString(36)}@example.test`
  const created = await page.request.post('/api/v1/users', { headers: { origin: process.env.E2E_BASE_URL! }, data: { email, role: 'viewer' } })
  expect(created.status(), await created.text()).toBe(201)
  await page.goto('/people')
  const role = page.getByLabel(`Role of ${email}`)
  await role.selectOption('admin')
  const dialog = page.getByTestId('role-change-confirm')
  await expect(dialog).toContainText(`Make ${email} an admin?`)
  await expect(dialog).toContainText('Their open sessions end now')
  await page.screenshot({ path: `${SCREENSHOTS}/role-change.png` })
  await dialog.getByRole('button', { name: 'Cancel' }).click()
  await expect(dialog).toHaveCount(0)
  await expect(role).toHaveValue('viewer')
  const stored = async () =>
    ((await (await page.request.get('/api/v1/users')).json()).items as { email: string; role: string }[]).find((u) => u.email === email)?.role
  expect(await stored()).toBe('viewer')
  await role.selectOption('operator')
  await page.getByTestId('role-change-confirm').getByRole('button', { name: 'Yes, make operator' }).click()
  await expect.poll(stored).toBe('operator')
  await expect(role).toHaveValue('operator')
  // Disabling goes through the same change (it once sent the id in the body, which the API refuses).
  const row = page.getByRole('row').filter({ hasText: email })
  await row.getByRole('button', { name: 'Disable' }).click()
  const disabled = async () =>
    ((await (await page.request.get('/api/v1/users')).json()).items as { email: string; disabled: boolean }[]).find((u) => u.email === email)?.disabled
  await expect.poll(disabled).toBe(true)
  await expect(page.getByText(/unknown field/)).toHaveCount(0)
})

test('agent credentials expire after 90 days unless someone chooses otherwise', async ({ page }) => {
  await page.goto('/tokens')
  const section = page.getByRole('region', { name: 'Agent credentials' })
  await expect(section.getByLabel('Expires after')).toHaveValue('90')
  const agents = await (await page.request.get('/api/v1/agents?limit=1')).json()
  const issued = await page.request.post(`/api/v1/agents/${agents.items[0].id}/credentials`, {
    headers: { origin: process.env.E2E_BASE_URL! },
    data: { name: `e2e-expiry-${Date.now()}` },
  })
  expect(issued.status()).toBe(201)
  const days = (Date.parse((await issued.json()).expiresAt) - Date.now()) / 86_400_000
  expect(days).toBeGreaterThan(89.9)
  expect(days).toBeLessThanOrEqual(90)
})

test('times say their zone, in the reader’s zone', async ({ browser }) => {
  const viewer = await openAs(browser, 'viewer', { timezoneId: 'Pacific/Auckland' })
  await viewer.page.goto('/audit')
  const row = viewer.page.getByTestId('audit-event-row').first()
  await row.click()
  const when = viewer.page.getByText(/^\d{1,2} \w{3} \d{4}, \d{2}:\d{2} GMT\+1[23]$/).first()
  await expect(when).toBeVisible()
  await viewer.close()
})
