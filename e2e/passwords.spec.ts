import { type Browser, expect, type Page, test } from '@playwright/test'

// A person changes their own password on their account page; an admin resets a forgotten one on
// the People page. Each with a person of their own, made through the API as the admin.

const SHOTS = '.data/test-reports/screenshots'
const suffix = Date.now().toString(36)

async function signInPage(browser: Browser, email: string, password: string): Promise<Page> {
  const context = await browser.newContext({ storageState: { cookies: [], origins: [] } })
  const page = await context.newPage()
  await page.goto('/sign-in')
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password').fill(password)
  await page.getByRole('button', { name: 'Sign in', exact: true }).click()
  await page.waitForURL((url) => url.pathname === '/')
  return page
}

/** Adds an operator through the API as the admin (whose page must be open, for the Origin the CSRF check wants). */
async function addPerson(page: Page, email: string, password?: string): Promise<{ id: string; password: string }> {
  const res = await page.request.post('/api/v1/users', {
    data: { email, role: 'operator', ...(password ? { password } : {}) },
    headers: { origin: new URL(page.url()).origin },
  })
  expect(res.status()).toBe(201)
  const body = await res.json()
  return { id: body.user.id, password: password ?? body.password }
}

test('a person changes their own password; the old one stops working', async ({ browser, page: admin }) => {
  await admin.goto('/')
  const email = `pw-own-${suffix}@toolroom.test`
  const first = 'first passphrase for e2e'
  const second = 'second passphrase for e2e'
  await addPerson(admin, email, first)

  const page = await signInPage(browser, email, first)
  await page.getByTestId('user-menu').getByRole('link', { name: email }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Your account' })).toBeVisible()
  const form = page.getByRole('form', { name: 'Change your password' })

  await form.getByLabel('Current password').fill('not my password at all')
  await form.getByLabel('New password', { exact: true }).fill(second)
  await form.getByLabel('New password again').fill(second)
  await form.getByRole('button', { name: 'Change password' }).click()
  await expect(page.getByRole('alert').filter({ hasText: 'the current password is wrong' })).toBeVisible()

  await form.getByLabel('Current password').fill(first)
  await form.getByLabel('New password again').fill('a different one entirely')
  await form.getByRole('button', { name: 'Change password' }).click()
  await expect(page.getByRole('alert').filter({ hasText: 'The two new passwords differ.' })).toBeVisible()

  await form.getByLabel('New password again').fill(second)
  await form.getByRole('button', { name: 'Change password' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'Password changed.' })).toBeVisible()
  await page.screenshot({ path: `${SHOTS}/account-password.png`, fullPage: true })
  // This session carries on under its fresh cookie.
  expect((await page.request.get('/api/v1/session')).status()).toBe(200)
  await page.context().close()

  const old = await admin.request.post('/api/v1/session', {
    data: { email, password: first },
    headers: { origin: new URL(admin.url()).origin },
    failOnStatusCode: false,
  })
  expect(old.status()).toBe(401)
  const again = await signInPage(browser, email, second)
  await expect(again.getByTestId('user-menu')).toContainText(email)
  await again.context().close()
})

test('an admin resets a forgotten password on the People page; the person signs in with the new one', async ({ browser, page: admin }) => {
  await admin.goto('/')
  const email = `pw-reset-${suffix}@toolroom.test`
  const { password: forgotten } = await addPerson(admin, email, 'a passphrase they forgot')
  const person = await signInPage(browser, email, forgotten)

  await admin.goto('/people')
  const row = admin.locator(`[data-testid="person-row"][data-email="${email}"]`)
  admin.once('dialog', (d) => void d.accept())
  await row.getByRole('button', { name: 'Reset password' }).click()
  const shown = admin.getByTestId('shown-once')
  await expect(shown).toContainText(`New password for ${email}`)
  const generated = (await admin.getByTestId('shown-once-value').textContent())!.trim()
  expect(generated.length).toBeGreaterThanOrEqual(20)
  await admin.screenshot({ path: `${SHOTS}/people-reset-password.png`, fullPage: true })

  // Their open session ended with the reset.
  expect((await person.request.get('/api/v1/session')).status()).toBe(401)
  await person.context().close()
  const back = await signInPage(browser, email, generated)
  await expect(back.getByTestId('user-menu')).toContainText(email)
  await back.context().close()
})

// Before the page's script runs (a slow phone, a script blocked), a form falls back to the browser's
// own submit: as a GET that would put the password in the address, the history and every log.
test('a form submitted before the page is interactive never puts a password in the address', async ({ browser }) => {
  const context = await browser.newContext({ storageState: { cookies: [], origins: [] }, javaScriptEnabled: false })
  const page = await context.newPage()
  const requested: string[] = []
  page.on('request', (r) => requested.push(`${r.method()} ${r.url()}`))
  await page.goto('/sign-in')
  await page.getByLabel('Email').fill('nobody@toolroom.test')
  await page.getByLabel('Password').fill('never in a url passphrase')
  await page.getByRole('button', { name: 'Sign in', exact: true }).click()
  await page.waitForLoadState('load')
  expect(requested.some((r) => r.includes('never') || r.includes('passphrase'))).toBe(false)
  expect(page.url()).not.toContain('passphrase')
  expect(requested.filter((r) => r.endsWith('/sign-in')).map((r) => r.split(' ')[0])).toContain('POST')
  await context.close()
})
