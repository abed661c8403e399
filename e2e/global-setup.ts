// Signs in once as the demo admin (seeded by `npm test` into the e2e database) through the real
// sign-in page, and keeps the session for every spec that does not sign in on its own.
import { chromium, type FullConfig } from '@playwright/test'

export const ADMIN_STATE = '.data/test-reports/admin-storage-state.json'

export default async function globalSetup(config: FullConfig) {
  const { baseURL, launchOptions } = config.projects[0].use
  const browser = await chromium.launch(launchOptions)
  const page = await browser.newPage({ baseURL })
  await page.goto('/sign-in')
  await page.getByLabel('Email').fill('admin@toolroom.local')
  await page.getByLabel('Password').fill('toolroom-demo-admin')
  await page.getByRole('button', { name: 'Sign in', exact: true }).click()
  await page.waitForURL((url) => url.pathname === '/', { timeout: 30_000 })
  await page.context().storageState({ path: ADMIN_STATE })
  await browser.close()
}
