// The demo people (seeded by `npm test`) in browser contexts of their own, so specs can put several
// people side by side: `openAs` with the session global setup made for the role through the sign-in
// page, `signInAs` through the sign-in page again, for the specs whose subject is signing in.
import { type Browser, type BrowserContext, type BrowserContextOptions, expect, type Page } from '@playwright/test'
import { sessionStatePath, WORLD_INDEX } from './worlds'

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

/** Signs `role` in on `page` through the sign-in page, and waits for the dashboard to name the role. */
export async function signInThroughPage(page: Page, role: DemoRole, { timeout }: { timeout?: number } = {}) {
  await page.goto('/sign-in')
  await page.getByLabel('Email').fill(demoEmail(role))
  await page.getByLabel('Password').fill(DEMO_PASSWORDS[role])
  await page.getByRole('button', { name: 'Sign in', exact: true }).click()
  await page.waitForURL((url) => url.pathname === '/', { timeout })
  await expect(page.getByTestId('user-role')).toHaveText(role, { timeout })
}

async function personIn(context: BrowserContext): Promise<SignedIn> {
  const page = await context.newPage()
  const cspViolations: string[] = []
  page.on('console', (m) => {
    if (/Content Security Policy|Refused to (execute|load)/i.test(m.text())) cspViolations.push(m.text())
  })
  return { page, context, cspViolations, close: () => context.close() }
}

/**
 * `role`, signed in, in a browser context of its own with the session global setup made for the role
 * in this world (its page is blank: the spec goes where it wants). `contextOptions`: how this person's
 * browser differs, e.g. its time zone.
 */
export async function openAs(browser: Browser, role: DemoRole, contextOptions: BrowserContextOptions = {}): Promise<SignedIn> {
  return personIn(await browser.newContext({ ...contextOptions, storageState: sessionStatePath(role, WORLD_INDEX) }))
}

/** `role` signed in through the sign-in page, in a browser context of its own; the page is left on the dashboard. */
export async function signInAs(browser: Browser, role: DemoRole, contextOptions: BrowserContextOptions = {}): Promise<SignedIn> {
  const person = await personIn(await browser.newContext({ ...contextOptions, storageState: { cookies: [], origins: [] } }))
  await signInThroughPage(person.page, role)
  return person
}
