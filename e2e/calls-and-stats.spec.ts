import { spawnSync } from 'node:child_process'
import { expect, test } from '@playwright/test'
import pg from 'pg'
import { builtEntry } from './support/built'

// Calls written straight into the e2e database as the gateway would write them, rolled up by the
// same code the worker runs; then the calls explorer and the 7-day charts are used in Chromium.
let agent: { id: string; name: string; namespace: string }
let tool: { name: string; namespace: string }

test.beforeAll(async () => {
  const db = new pg.Client({ connectionString: process.env.DATABASE_URL })
  await db.connect()
  try {
    agent = (await db.query(`SELECT id, name, namespace FROM "Agent" ORDER BY name LIMIT 1`)).rows[0]
    tool = (await db.query(`SELECT name, namespace FROM "Tool" ORDER BY name LIMIT 1`)).rows[0]
    await db.query(
      `INSERT INTO "ToolCall" ("startedAt", "agentId", "agentNamespace", "agentName", "toolId", "toolNamespace", "toolKey", provenance, channel, outcome, "errorCode", "errorMessage", "latencyMs", args, result)
       SELECT now() - (i * interval '37 minutes'), $1, $2, $3, $4, split_part($4, '.', 1), 'Tool/' || $5 || '/' || $4, 'grant', CASE WHEN i % 4 = 0 THEN 'rest' ELSE 'mcp' END,
         CASE WHEN i % 9 = 0 THEN 'failed' WHEN i % 13 = 0 THEN 'denied' ELSE 'succeeded' END,
         CASE WHEN i % 9 = 0 THEN 'UPSTREAM_ERROR' END, CASE WHEN i % 9 = 0 THEN 'upstream answered 502' END,
         20 + (i * 37) % 900, json_build_object('ticket', 'T-' || i, 'apiKey', '[REDACTED]'), json_build_object('ok', i % 9 <> 0)
       FROM generate_series(1, 240) AS i`,
      [agent.id, agent.namespace, agent.name, tool.name, tool.namespace],
    )
  } finally {
    await db.end()
  }
  const rollup = spawnSync(process.execPath, [builtEntry('stats-rollup')], { env: process.env, encoding: 'utf8' })
  expect(rollup.status, rollup.stderr).toBe(0)
})

test('the calls explorer filters calls and shows one with its redacted arguments', async ({ page }) => {
  const errors: string[] = []
  page.on('pageerror', (e) => errors.push(e.message))
  await page.goto('/calls')
  await expect(page.getByRole('heading', { level: 1, name: 'Calls' })).toBeVisible()
  await expect(page.locator('tr[data-call-id]').first()).toBeVisible()

  await page.getByLabel('Outcome').selectOption('failed')
  await expect(page).toHaveURL(/outcome=failed/)
  const rows = page.locator('tr[data-call-id]')
  await expect(rows.first()).toBeVisible()
  await expect(page.locator('tbody').getByText('succeeded')).toHaveCount(0)
  // The row's middle holds links now (its tool, its agent): the row's own button opens the call.
  await rows
    .first()
    .getByRole('button', { name: /^Open the call of / })
    .click()
  const detail = page.locator('.call-detail')
  await expect(detail.getByText('UPSTREAM_ERROR: upstream answered 502')).toBeVisible()
  await expect(detail.getByText('"apiKey": "[REDACTED]"')).toBeVisible()
  await page.screenshot({ path: '.data/test-reports/screenshots/calls.png', fullPage: true })

  await page.getByLabel('Tool id').fill('Not A Tool')
  await expect(page.getByText('These filters cannot be used')).toBeVisible()
  expect(errors).toEqual([])
})

for (const where of ['dashboard', 'tool', 'agent'] as const) {
  test(`the ${where} page draws the 7-day charts`, async ({ page }) => {
    const errors: string[] = []
    page.on('pageerror', (e) => errors.push(e.message))
    const path = where === 'dashboard' ? '/' : where === 'tool' ? `/tools/${tool.name}?namespace=${tool.namespace}` : `/agents/${agent.id}`
    await page.goto(path)
    const panel = page.locator('.call-stats')
    await expect(panel.locator('[data-chart="bars"] .recharts-wrapper > svg.recharts-surface')).toBeVisible()
    await expect(panel.locator('[data-chart="lines"] .recharts-wrapper > svg.recharts-surface')).toBeVisible()
    await expect(panel.locator('.recharts-bar-rectangle').first()).toBeVisible()
    await expect(panel.getByText('Calls', { exact: true })).toBeVisible()
    await panel.getByRole('button', { name: 'by hour' }).click()
    await expect(panel.getByRole('heading', { name: 'Calls per hour' })).toBeVisible()
    if (where === 'dashboard') await expect(page.getByRole('heading', { name: 'Top failing tools' })).toBeVisible()
    await page.waitForLoadState('networkidle')
    await page.screenshot({ path: `.data/test-reports/screenshots/stats-${where}.png`, fullPage: true })
    expect(errors).toEqual([])
  })
}
