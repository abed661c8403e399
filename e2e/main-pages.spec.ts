import { expect, test } from '@playwright/test'

// Every main page renders real content from the seeded demo fleet without errors; the screenshots
// land in .data/test-reports/screenshots/ for a person to look at.
const pages = [
  { path: '/', name: 'dashboard', heading: /dashboard/i },
  { path: '/agents', name: 'agents', heading: /agents/i },
  { path: '/units', name: 'units', heading: /units/i },
  { path: '/tools', name: 'tools', heading: /tools/i },
  { path: '/language-tools', name: 'language-tools', heading: /languagetools|mcp servers/i },
  { path: '/connectors', name: 'connectors', heading: /connectors/i },
  { path: '/discovery', name: 'discovery', heading: /discovery/i },
  { path: '/apply', name: 'apply', heading: /apply/i },
]

for (const { path, name, heading } of pages) {
  test(`${name} page renders`, async ({ page }) => {
    const errors: string[] = []
    page.on('pageerror', (e) => errors.push(e.message))
    await page.goto(path)
    await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible()
    await page.waitForLoadState('networkidle')
    await expect(page.getByText(/something went wrong|failed to load/i)).toHaveCount(0)
    await page.screenshot({ path: `.data/test-reports/screenshots/${name}.png`, fullPage: true })
    expect(errors).toEqual([])
  })
}

test('an agent page shows its effective tools, one card per name with its provenance', async ({ page }) => {
  const list = await (await page.request.get('/api/v1/agents?limit=50')).json()
  // the demo agent with the most varied set: one with an image digest
  const agent = list.items.find((a: { status: { imageTools: { count: number } } }) => a.status.imageTools.count > 0) ?? list.items[0]
  await page.goto(`/agents/${agent.id}`)
  await expect(page.getByRole('heading', { level: 1, name: new RegExp(agent.metadata.name) })).toBeVisible()
  await expect(page.locator('[data-testid="tool-name-card"]').first()).toBeVisible()
  await expect(page.locator('[data-testid="tool-name-card"][data-provenance="platform"]').first()).toBeVisible()
  await page.screenshot({ path: '.data/test-reports/screenshots/agent.png', fullPage: true })
})

test('sidebar links prefetch when the reader points at them, not all at once on every page view', async ({ page }) => {
  const prefetched: string[] = []
  page.on('request', (r) => {
    if (r.url().includes('_rsc=')) prefetched.push(new URL(r.url()).pathname)
  })
  await page.goto('/tools')
  await expect(page.getByRole('heading', { level: 1, name: /tools/i })).toBeVisible()
  await page.waitForLoadState('networkidle')
  const nav = page.getByRole('navigation', { name: 'Main' })
  const targets = await nav.getByRole('link').evaluateAll((links) => links.map((a) => new URL((a as HTMLAnchorElement).href).pathname))
  expect(targets).toContain('/calls')
  expect(prefetched.filter((p) => targets.includes(p))).toEqual([])

  await nav.getByRole('link', { name: /^Calls/ }).hover()
  await expect.poll(() => prefetched).toContain('/calls')
  expect(prefetched.filter((p) => targets.includes(p) && p !== '/calls')).toEqual([])
})
