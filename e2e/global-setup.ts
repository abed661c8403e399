// Signs every demo person (seeded by `npm test` into every world's database) in once through each
// world's real sign-in page, and keeps their sessions: the admin's is the default of every spec, the
// others' are what `openAs` (support/sign-in.ts) opens a browser with, so a spec that needs an approver
// or a viewer does not sign in through the page again (docs/design/testing.md, "Sessions"). Then puts
// the page walk's requests in each world's queue (support/pending-payments.ts).
import { chromium, type FullConfig } from '@playwright/test'
import { ensurePendingPayments } from './support/pending-payments'
import { DEMO_PASSWORDS, type DemoRole, signInThroughPage } from './support/sign-in'
import { adminStatePath, sessionStatePath, WORLD_INDEX, WORLDS } from './support/worlds'

/** The demo admin's session in this worker's world. */
export const ADMIN_STATE = adminStatePath(WORLD_INDEX)

export default async function globalSetup(config: FullConfig) {
  const { launchOptions } = config.projects[0].use
  const browser = await chromium.launch(launchOptions)
  try {
    await Promise.all(
      WORLDS.map(async (world, index) => {
        for (const role of Object.keys(DEMO_PASSWORDS) as DemoRole[]) {
          const context = await browser.newContext({ baseURL: world.baseURL, storageState: { cookies: [], origins: [] } })
          await signInThroughPage(await context.newPage(), role, { timeout: 30_000 })
          await context.storageState({ path: sessionStatePath(role, index) })
          await context.close()
        }
        await ensurePendingPayments(world.baseURL, adminStatePath(index))
      }),
    )
  } finally {
    await browser.close()
  }
}
