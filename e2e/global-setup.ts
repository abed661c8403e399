// Signs in once as the demo admin (seeded by `npm test` into every world's database) through each
// world's real sign-in page, and keeps the session for every spec of that world that does not sign in
// on its own. Then puts the page walk's requests in each world's queue (support/pending-payments.ts).
import { chromium, type FullConfig } from '@playwright/test'
import { ensurePendingPayments } from './support/pending-payments'
import { adminStatePath, WORLD_INDEX, WORLDS } from './support/worlds'

/** The demo admin's session in this worker's world. */
export const ADMIN_STATE = adminStatePath(WORLD_INDEX)

export default async function globalSetup(config: FullConfig) {
  const { launchOptions } = config.projects[0].use
  const browser = await chromium.launch(launchOptions)
  try {
    await Promise.all(
      WORLDS.map(async (world, index) => {
        const page = await browser.newPage({ baseURL: world.baseURL })
        await page.goto('/sign-in')
        await page.getByLabel('Email').fill('admin@toolroom.local')
        await page.getByLabel('Password').fill('toolroom-demo-admin')
        await page.getByRole('button', { name: 'Sign in', exact: true }).click()
        await page.waitForURL((url) => url.pathname === '/', { timeout: 30_000 })
        await page.context().storageState({ path: adminStatePath(index) })
        await page.context().close()
        await ensurePendingPayments(world.baseURL, adminStatePath(index))
      }),
    )
  } finally {
    await browser.close()
  }
}
