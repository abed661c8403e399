import fs from 'node:fs'
import path from 'node:path'
import { expect, test } from '@playwright/test'
import { open, pagePaths, pageRoutes, walkEveryPage } from './support/page-walk'
import { PORTAL_PAGES } from './support/portal-pages'
import { openAs } from './support/sign-in'

// Every page of the portal on a desktop (1440×900): it renders and axe-core finds no serious or
// critical accessibility violation (e2e/support/page-walk.ts). Then the same walk as a viewer: no page
// offers a change the role cannot make. The walk itself is checked to list every page there is.

test('the walk lists every page of the portal', () => {
  const listed = new Set(PORTAL_PAGES.map((p) => p.route))
  expect(
    pageRoutes().filter((r) => !listed.has(r)),
    'pages missing from e2e/support/portal-pages.ts',
  ).toEqual([])
  expect(fs.existsSync(path.resolve('app/not-found.tsx'))).toBe(true)
})

walkEveryPage({ name: 'desktop', width: 1440, height: 900 })

/** Buttons that change something; a viewer may read everything but do none of this. */
const CHANGES =
  /^(apply|save|delete|remove|revoke|rotate|refresh now|approve|deny|accept|reject|issue|create|add|upload|disable|enable|reset password|new token|new credential)\b/i
/** What every role may do for itself: an API token within its own role (POST /api/v1/tokens needs only read). */
const OWN = /^create token$/i

test('a viewer walking every page is offered no change it could not make', async ({ browser }) => {
  test.setTimeout(PORTAL_PAGES.length * 30_000)
  const paths = await pagePaths()
  const viewer = await openAs(browser, 'viewer', { viewport: { width: 1440, height: 900 } })
  const offered: string[] = []
  for (const p of PORTAL_PAGES.filter((x) => !x.signedOut)) {
    await open(viewer.page, p, paths)
    const names = await viewer.page
      .getByRole('button')
      .evaluateAll((buttons) =>
        buttons.filter((b) => !(b as HTMLButtonElement).disabled).map((b) => (b.getAttribute('aria-label') ?? b.textContent ?? '').trim()),
      )
    for (const name of names.filter((n) => CHANGES.test(n) && !OWN.test(n))) offered.push(`${p.name}: "${name}"`)
  }
  expect(offered).toEqual([])
  expect(viewer.cspViolations).toEqual([])
  await viewer.close()
})
