import type { Page } from '@playwright/test'

/**
 * Holds the page's scripts back until the returned function is called, so the server-rendered page
 * is on screen and takes keys while React is not there yet: the moment a person presses one first.
 * Scripts only: the stylesheets beside them under /_next/static must load for the page to paint.
 */
export async function holdScripts(page: Page): Promise<() => void> {
  let release!: () => void
  const held = new Promise<void>((resolve) => (release = resolve))
  await page.route(
    ({ pathname }) => pathname.startsWith('/_next/static/') && pathname.endsWith('.js'),
    async (route) => {
      await held
      await route.continue()
    },
  )
  return release
}
