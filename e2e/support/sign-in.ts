// Signs in as one of the demo people (seeded by `npm test`) through the real sign-in page, in a
// browser context of its own, so specs can put several people side by side.
import { type Browser, type BrowserContext, type BrowserContextOptions, expect, type Page } from '@playwright/test'

export const DEMO_PASSWORDS = {
  viewer: 'toolroom-demo-viewer',
  operator: 'toolroom-demo-operator',
  approver: 'toolroom-demo-approver',
  admin: 'toolroom-demo-admin',
} as const
export type DemoRole = keyof typeof DEMO_PASSWORDS

export const demoEmail = (role: DemoRole) => `${role}@toolroom.local`

export interface SignedIn {
  page: Page
  context: BrowserContext
  /** Content Security Policy violations the page reported; a spec expects none. */
  cspViolations: string[]
  close: () => Promise<void>
}

/** `contextOptions`: how this person's browser differs, e.g. its time zone. */
export async function signInAs(browser: Browser, role: DemoRole, contextOptions: BrowserContextOptions = {}): Promise<SignedIn> {
  const context = await browser.newContext({ ...contextOptions, storageState: { cookies: [], origins: [] } })
  const page = await context.newPage()
  const cspViolations: string[] = []
  page.on('console', (m) => {
    if (/Content Security Policy|Refused to (execute|load)/i.test(m.text())) cspViolations.push(m.text())
  })
  await page.goto('/sign-in')
  await page.getByLabel('Email').fill(demoEmail(role))
  await page.getByLabel('Password').fill(DEMO_PASSWORDS[role])
  await page.getByRole('button', { name: 'Sign in', exact: true }).click()
  await page.waitForURL((url) => url.pathname === '/')
  await expect(page.getByTestId('user-role')).toHaveText(role)
  return { page, context, cspViolations, close: () => context.close() }
}
