import { expect, type Page, test } from '@playwright/test'
import pg from 'pg'

// The Discovery page's tabs say how many changes wait and how many runs failed in the last 24 hours,
// and while runs fail their tab comes first and opens. Runs are written straight into the e2e
// database (no worker runs discovery here), as the worker records them, and taken out afterwards.
const marker = `e2e-tabs-${Date.now().toString(36)}`
let db: pg.Client
let subject: { id: string; name: string; namespace: string }

test.beforeAll(async () => {
  db = new pg.Client({ connectionString: process.env.DATABASE_URL })
  await db.connect()
  subject = (await db.query(`SELECT id, name, namespace FROM "LanguageTool" ORDER BY namespace, name LIMIT 1`)).rows[0]
})

test.afterAll(async () => {
  await db.query(`DELETE FROM "DiscoveryRun" WHERE error LIKE $1`, [`${marker}%`])
  await db.end()
})

async function failedRun(hoursAgo: number): Promise<void> {
  await db.query(
    `INSERT INTO "DiscoveryRun" (id, "subjectKind", "subjectId", namespace, name, trigger, status, error, "startedAt", "finishedAt")
     VALUES (gen_random_uuid(), 'LanguageTool', $1, $2, $3, 'periodic', 'failed', $4, now() - $5 * interval '1 hour', now() - $5 * interval '1 hour' + interval '2 seconds')`,
    [subject.id, subject.namespace, subject.name, `${marker}: connection refused`, hoursAgo],
  )
}

const tabs = (page: Page) => page.getByRole('tablist').getByRole('tab')

test('failed runs of the last 24 hours put their tab first, opened, with their count; older ones do not', async ({ page }) => {
  await db.query(`DELETE FROM "DiscoveryRun" WHERE status = 'failed' AND "startedAt" > now() - interval '24 hours'`)
  await failedRun(72)
  await page.goto('/discovery')
  await expect(tabs(page).first()).toHaveText(/^Pending reviews/)
  await expect(tabs(page).first()).toHaveAttribute('aria-selected', 'true')
  // An old failure is listed under its tab but does not count as failing now.
  await expect(tabs(page).nth(1)).toHaveText('Failures')

  await failedRun(1)
  await failedRun(3)
  await page.reload()
  await expect(tabs(page).first()).toHaveText(/^Failures\s*2$/)
  await expect(tabs(page).first()).toHaveAttribute('aria-selected', 'true')
  const panel = page.getByRole('tabpanel')
  await expect(panel.getByText(`${marker}: connection refused`).first()).toBeVisible()

  // The keyboard moves along the row (the ARIA tabs pattern), and the choice lands in the address.
  await tabs(page).first().focus()
  await page.keyboard.press('ArrowRight')
  await expect(tabs(page).nth(1)).toBeFocused()
  await expect(tabs(page).nth(1)).toHaveAttribute('aria-selected', 'true')
  await expect(page).toHaveURL(/tab=pending/)
  await page.screenshot({ path: '.data/test-reports/screenshots/discovery-tabs.png', fullPage: true })
})
