import { spawnSync } from 'node:child_process'
import AxeBuilder from '@axe-core/playwright'
import { expect, type Page, test } from '@playwright/test'
import pg from 'pg'
import { ADMIN_STATE } from './global-setup'
import { builtEntry } from './support/built'

// Calls by person and the identity provider pages: calls made for the demo identity provider's people
// (and for nobody), written into the e2e database as the gateway writes them and rolled up by the
// worker's own code; then the dashboard's "Calls by person", the identity providers list and one
// provider's page, on a desktop and a phone, with no serious accessibility violation.
test.describe.configure({ mode: 'serial' })

const SCREENSHOTS = '.data/test-reports/screenshots'
const VIEWPORTS = [
  { name: 'desktop', width: 1440, height: 900 },
  { name: 'phone', width: 390, height: 844 },
] as const
let idp: { id: string; issuer: string; name: string }

test.beforeAll(async () => {
  const db = new pg.Client({ connectionString: process.env.DATABASE_URL })
  await db.connect()
  try {
    idp = (await db.query(`SELECT id, issuer, name FROM "IdentityProvider" ORDER BY name LIMIT 1`)).rows[0]
    const agents = (await db.query(`SELECT id, name, namespace FROM "Agent" ORDER BY name LIMIT 2`)).rows
    // Jane: 6 calls by two agents, one failed; Omar: 2 by one agent; 3 made for nobody.
    const calls: Array<[number, string | null, string | null, string]> = [
      ...[0, 0, 0, 1, 1, 1].map((a, i) => [a, 'e2e-jane', 'Jane Doe', i === 2 ? 'failed' : 'succeeded'] as [number, string, string, string]),
      [0, 'e2e-omar', 'Omar Haddad', 'succeeded'],
      [0, 'e2e-omar', 'Omar Haddad', 'succeeded'],
      [1, null, null, 'succeeded'],
      [1, null, null, 'succeeded'],
      [1, null, null, 'succeeded'],
    ]
    for (const [i, [a, subject, name, outcome]] of calls.entries()) {
      const agent = agents[a]
      await db.query(
        `INSERT INTO "ToolCall" ("startedAt", "agentId", "agentNamespace", "agentName", "toolId", "toolNamespace", provenance, channel, outcome, "latencyMs",
           "onBehalfOfIssuer", "onBehalfOfSubject", "onBehalfOfDisplayName")
         VALUES (now() - $1 * interval '41 minutes', $2, $3, $4, 'people.lookup', 'people', 'grant', 'mcp', $5, 120, $6, $7, $8)`,
        [i, agent.id, agent.namespace, agent.name, outcome, subject ? idp.issuer : null, subject, name],
      )
    }
  } finally {
    await db.end()
  }
  const rollup = spawnSync(process.execPath, [builtEntry('stats-rollup')], { env: process.env, encoding: 'utf8' })
  expect(rollup.status, rollup.stderr).toBe(0)
})

async function seriousViolations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).analyze()
  return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.help}`)
}

for (const viewport of VIEWPORTS) {
  test(`calls by person and the identity provider pages at ${viewport.width}×${viewport.height}`, async ({ browser }) => {
    // Three pages, each checked by axe: more than the default minute on a loaded machine.
    test.setTimeout(240_000)
    const context = await browser.newContext({ storageState: ADMIN_STATE, viewport })
    const page = await context.newPage()
    const errors: string[] = []
    page.on('pageerror', (e) => errors.push(e.message))

    await page.goto('/')
    const card = page.locator('section', { has: page.getByRole('heading', { name: 'Calls by person', exact: true }) })
    await expect(card).toContainText('Jane Doe')
    const jane = card.getByRole('row', { name: /Jane Doe/ })
    await expect(jane).toContainText('e2e-jane')
    await expect(jane.getByRole('cell').nth(1)).toHaveText('6')
    await expect(jane.getByRole('cell').nth(3)).toHaveText('2')
    await expect(card.getByRole('row', { name: /No person/ })).toBeVisible()
    await card.scrollIntoViewIfNeeded()
    await card.screenshot({ path: `${SCREENSHOTS}/calls-by-person-${viewport.name}.png` })
    expect(await seriousViolations(page)).toEqual([])

    // The navigation leads to the identity providers, and the list to one provider's page.
    await page.goto('/identity-providers')
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Identity providers')
    await expect(page.getByTestId('identity-provider-row').filter({ hasText: idp.issuer })).toBeVisible()
    await page.screenshot({ path: `${SCREENSHOTS}/identity-providers-${viewport.name}.png`, fullPage: true })
    expect(await seriousViolations(page)).toEqual([])
    await page.getByTestId('identity-provider-row').filter({ hasText: idp.issuer }).getByRole('link').click()
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(idp.name)
    await expect(page.getByText(idp.issuer).first()).toBeVisible()
    await expect(page.getByTestId('people-total')).toContainText('2 people acted for in the last 7 days')
    await expect(page.getByRole('row', { name: /Omar Haddad/ })).toBeVisible()
    await expect(page.getByRole('row', { name: /No person/ })).toHaveCount(0)
    await page.screenshot({ path: `${SCREENSHOTS}/identity-provider-${viewport.name}.png`, fullPage: true })
    expect(await seriousViolations(page)).toEqual([])
    // Nothing makes the phone's page scroll sideways.
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1)).toBe(true)
    expect(errors).toEqual([])
    await context.close()
  })
}
