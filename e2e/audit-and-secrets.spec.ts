import fs from 'node:fs'
import { expect, type Page, test } from '@playwright/test'

// A Secret created and rotated through the API never shows in any page, any answer the pages
// fetch, or the web server's log; the audit page shows its changes (key names only) and exports.
const suffix = Date.now().toString(36)
const name = `e2e-secret-${suffix}`
const VALUE = `e2e-s3cr3t-${suffix}-${Math.random().toString(36).slice(2)}`
const ROTATED = `e2e-r0t4t3d-${suffix}-${Math.random().toString(36).slice(2)}`
const TYPED = `e2e-typ3d-${suffix}-${Math.random().toString(36).slice(2)}`
const forms = (v: string) => [v, Buffer.from(v).toString('base64'), Buffer.from(v).toString('base64').replace(/=+$/, '')]
const FORMS = [...forms(VALUE), ...forms(ROTATED), ...forms(TYPED)]
const leaksIn = (text: string) => FORMS.filter((f) => text.includes(f))

test.describe.configure({ mode: 'serial' })

/** Collects every response body the page fetches, to search them too. */
function recordResponses(page: Page) {
  const bodies: string[] = []
  page.on('response', async (response) => {
    try {
      bodies.push(await response.text())
    } catch {
      // redirects and aborted requests have no body
    }
  })
  return bodies
}

// The API calls below ride on the signed-in session cookie, so they carry the Origin a browser would (CSRF check).
test.use({ extraHTTPHeaders: { origin: process.env.E2E_BASE_URL! } })

test('a secret is created, rotated and audited through the API without its value in any answer', async ({ request }) => {
  const created = await request.post('/api/v1/secrets', {
    data: { metadata: { name, namespace: 'e2e' }, spec: { type: 'bearer', stringData: { token: VALUE } } },
  })
  expect(created.status()).toBe(201)
  const tool = await request.post('/api/v1/tools', {
    data: {
      metadata: { name: `e2e_${suffix}.call_crm`, namespace: 'e2e' },
      spec: {
        type: 'rest',
        description: 'Calls the CRM.',
        inputSchema: { type: 'object' },
        endpoint: { method: 'GET', url: 'https://crm.example.test/x', auth: { type: 'bearer', secretRef: { name, key: 'token' } } },
      },
    },
  })
  expect(tool.status()).toBe(201)
  const rotated = await request.post(`/api/v1/secrets/${name}/rotate?namespace=e2e`, { data: { stringData: { token: ROTATED } } })
  expect(rotated.status()).toBe(200)
  const texts = [await created.text(), await rotated.text()]
  for (const path of [
    `/api/v1/secrets/${name}?namespace=e2e`,
    '/api/v1/secrets?namespace=e2e',
    '/api/v1/audit?kind=Secret',
    '/api/v1/audit/export?namespace=e2e',
    '/api/v1/openapi.json',
  ]) {
    const res = await request.get(path)
    expect(res.status(), path).toBe(200)
    texts.push(await res.text())
  }
  expect(texts.join('\n')).toContain('secret.rotated')
  expect(leaksIn(texts.join('\n'))).toEqual([])
})

test('no portal page shows the value, nor any answer it fetched', async ({ page }) => {
  const bodies = recordResponses(page)
  const tool = await (await page.request.get(`/api/v1/tools/e2e_${suffix}.call_crm?namespace=e2e`)).json()
  const firstOf = async (plural: string) => (await (await page.request.get(`/api/v1/${plural}?limit=1`)).json()).items[0].id as string
  const paths = [
    '/',
    '/agents',
    '/units',
    '/tools',
    '/language-tools',
    '/connectors',
    '/secrets',
    '/discovery',
    '/apply',
    '/audit',
    `/secrets/${name}?namespace=e2e`,
    '/secrets?namespace=e2e',
    `/tools/${tool.id}`,
    `/agents/${await firstOf('agents')}`,
    `/units/${await firstOf('units')}`,
    `/language-tools/${await firstOf('languagetools')}`,
    `/connectors/${await firstOf('connectors')}`,
    `/audit?kind=Secret&namespace=e2e`,
    `/audit?resource=${name}`,
  ]
  // Each page is loaded to network idle: the budget grows with the pages, not one minute for all.
  test.setTimeout(30_000 + paths.length * 10_000)
  for (const path of paths) {
    await page.goto(path)
    await page.waitForLoadState('networkidle')
    expect(leaksIn(await page.content()), path).toEqual([])
  }
  // the secret's audit events, opened to their before/after diff
  await page.goto(`/audit?resource=${name}`)
  const rows = page.getByTestId('audit-event-row')
  await expect(rows).toHaveCount(2)
  for (const row of await rows.all()) await row.getByRole('button').click()
  await expect(page.getByText('"token"').first()).toBeVisible()
  expect(leaksIn(await page.content())).toEqual([])
  expect(bodies.length).toBeGreaterThan(20)
  expect(leaksIn(bodies.join('\n'))).toEqual([])
})

test('an admin rotates a secret on its page: the form forgets the value, the page never shows it', async ({ page }) => {
  const bodies = recordResponses(page)
  await page.goto('/secrets?namespace=e2e')
  await page.locator(`[data-testid="secret-row"][data-name="${name}"]`).getByRole('link').click()
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible()
  await expect(page.getByText('generation').first()).toBeVisible()
  await page.getByLabel('token').fill(TYPED)
  await page.getByRole('button', { name: 'Rotate values' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'Rotated: now generation 3' })).toBeVisible()
  await expect(page.getByLabel('token')).toHaveValue('')
  await expect(page.locator('#history').getByTestId('audit-event-row')).toHaveCount(3)
  await page.screenshot({ path: '.data/test-reports/screenshots/secret.png', fullPage: true })
  expect(leaksIn(await page.content())).toEqual([])
  expect(leaksIn(bodies.join('\n'))).toEqual([])
})

test('the audit page filters, opens an event to its diff, and exports JSON Lines', async ({ page }) => {
  await page.goto('/audit')
  await expect(page.getByRole('heading', { level: 1, name: /audit log/i })).toBeVisible()
  await page.getByLabel('Kind').selectOption('Secret')
  await page.getByLabel('Action').selectOption('secret.rotated')
  await expect(page).toHaveURL(/kind=Secret/)
  const row = page.getByTestId('audit-event-row').filter({ hasText: name }).first()
  await expect(row).toBeVisible()
  await expect(page.getByTestId('audit-event-row').and(page.locator(':not([data-action="secret.rotated"])'))).toHaveCount(0)
  await row.getByRole('button').click()
  await expect(page.getByText('fromKeyId')).toBeVisible()
  await page.screenshot({ path: '.data/test-reports/screenshots/audit.png', fullPage: true })

  const href = await page.getByTestId('audit-export').getAttribute('href')
  expect(href).toContain('kind=Secret')
  const exported = await page.request.get(href!)
  expect(exported.headers()['content-type']).toMatch(/application\/jsonl/)
  const events = (await exported.text())
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line))
  expect(events.every((e) => e.kind === 'Secret' && e.action === 'secret.rotated')).toBe(true)
  expect(events.some((e) => e.resource === name)).toBe(true)

  // a tool page lists its own history
  await page.goto(`/tools/e2e_${suffix}.call_crm?namespace=e2e`)
  await expect(page.locator('#history').getByTestId('audit-event-row')).toHaveCount(1)
})

test("the web server's log never held the value", async () => {
  const file = process.env.E2E_SERVER_LOG
  expect(file, 'E2E_SERVER_LOG is set by npm test').toBeTruthy()
  const log = fs.readFileSync(file!, 'utf8')
  expect(log.length).toBeGreaterThan(0)
  expect(leaksIn(log)).toEqual([])
})
