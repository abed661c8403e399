// The walk over every page of the portal (e2e/every-page-phone.spec.ts, e2e/every-page-desktop.spec.ts):
// each page at one viewport renders, nothing makes it scroll sideways on a phone, and axe-core finds no
// serious or critical accessibility violation. The two viewports are two files, so that the two halves
// of the walk run in two worlds at once. The requests the queue shows are made once per world, before
// any spec (e2e/global-setup.ts). Screenshots land in .data/test-reports/screenshots/pages/.
import fs from 'node:fs'
import path from 'node:path'
import AxeBuilder from '@axe-core/playwright'
import { type ConsoleMessage, expect, type Page, type Request, request as playwrightRequest, test } from '@playwright/test'
import { ADMIN_STATE } from '../global-setup'
import { PORTAL_PAGES, type PortalPage } from './portal-pages'

const SCREENSHOTS = '.data/test-reports/screenshots/pages'

/** Each page's address in this world, by page name. */
export type PagePaths = Map<string, string>

/** Looks up every page's address (detail pages find a real id) with the admin's session. */
export async function pagePaths(): Promise<PagePaths> {
  const baseURL = process.env.E2E_BASE_URL!
  const admin = await playwrightRequest.newContext({ baseURL, storageState: ADMIN_STATE, extraHTTPHeaders: { origin: baseURL } })
  try {
    const paths: PagePaths = new Map()
    for (const p of PORTAL_PAGES) paths.set(p.name, typeof p.path === 'string' ? p.path : await p.path(admin))
    return paths
  } finally {
    await admin.dispose()
  }
}

/** Routes of every page.tsx under app/, as `/agents/[id]` (route groups left out). */
export function pageRoutes(): string[] {
  const routes: string[] = []
  const walk = (dir: string, route: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (!entry.isDirectory()) {
        if (entry.name === 'page.tsx') routes.push(route || '/')
        continue
      }
      if (entry.name === 'api') continue
      const segment = /^\(.*\)$/.test(entry.name) ? '' : `/${entry.name}`
      walk(path.join(dir, entry.name), route + segment)
    }
  }
  walk(path.resolve('app'), '')
  return routes.sort()
}

/**
 * What went wrong in the page while it loaded: script errors, console errors, requests that failed
 * and requests still unanswered. A panel that never stops loading is then told apart from a page
 * that never hydrated or an API read that never returned.
 */
function watchLoading(page: Page) {
  const problems: string[] = []
  const unanswered = new Set<string>()
  const name = (r: Request) => `${r.method()} ${r.url()}`
  const onError = (e: Error) => problems.push(`script error: ${e.message}`)
  const onConsole = (m: ConsoleMessage) => void (m.type() === 'error' && problems.push(`console error: ${m.text()}`))
  const onRequest = (r: Request) => unanswered.add(name(r))
  const onFinished = (r: Request) => unanswered.delete(name(r))
  const onFailed = (r: Request) => {
    unanswered.delete(name(r))
    problems.push(`request failed: ${name(r)}: ${r.failure()?.errorText}`)
  }
  page.on('pageerror', onError).on('console', onConsole).on('request', onRequest).on('requestfinished', onFinished).on('requestfailed', onFailed)
  return {
    report: () => [...problems, ...[...unanswered].map((r) => `no answer yet: ${r}`)].join('\n') || 'no script error, console error or failed request',
    // A page walked again (the viewer's walk) watches each visit on its own.
    stop: () =>
      void page.off('pageerror', onError).off('console', onConsole).off('request', onRequest).off('requestfinished', onFinished).off('requestfailed', onFailed),
  }
}

export async function open(page: Page, p: PortalPage, paths: PagePaths) {
  const seen = watchLoading(page)
  try {
    const response = await page.goto(paths.get(p.name)!)
    expect(response?.status(), `${p.name}: HTTP status`).toBe(p.status ?? 200)
    await expect(page.getByRole('heading', { level: 1, name: p.heading }).first()).toBeVisible()
    await page.waitForLoadState('networkidle')
    // Lists and panels load after the page: wait until none says it is still loading.
    await expect(page.getByRole('status').filter({ hasText: /^Loading/ }))
      .toHaveCount(0, { timeout: 30_000 })
      .catch((e: Error) => {
        throw new Error(`${p.name}: still loading after 30 s. In the page:\n${seen.report()}\n\n${e.message}`)
      })
  } finally {
    seen.stop()
  }
}

/** What scrolls sideways: the page itself, or any box that is not code (code may scroll; it is reachable by keyboard). */
export function horizontalOverflow(page: Page) {
  return page.evaluate(() => {
    const describe = (el: Element) => {
      const id = el.id ? `#${el.id}` : ''
      const cls = typeof el.className === 'string' && el.className ? `.${el.className.trim().split(/\s+/).slice(0, 4).join('.')}` : ''
      const text = (el.textContent ?? '').trim().slice(0, 60)
      return `${el.tagName.toLowerCase()}${id}${cls} "${text}"`
    }
    const problems: string[] = []
    const root = document.documentElement
    if (root.scrollWidth > root.clientWidth + 1) problems.push(`the page: ${root.scrollWidth}px wide in a ${root.clientWidth}px viewport`)
    for (const el of document.querySelectorAll('body *')) {
      const style = getComputedStyle(el)
      if (!/auto|scroll/.test(style.overflowX) || el.scrollWidth <= el.clientWidth + 1) continue
      if (el.closest('pre, [data-scroll="x"]')) continue
      problems.push(`${describe(el)}: scrolls ${el.scrollWidth - el.clientWidth}px sideways`)
    }
    return problems
  })
}

export async function seriousViolations(page: Page) {
  const result = await new AxeBuilder({ page }).analyze()
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.help}\n${v.nodes
          .slice(0, 5)
          .map((n) => `    ${n.target.join(' ')}: ${(n.failureSummary ?? '').split('\n').slice(1).join(' ').trim()}`)
          .join('\n')}`,
    )
}

/** One test per page at `viewport`: it renders, and (on a phone) does not scroll sideways; axe-core finds nothing serious. */
export function walkEveryPage(viewport: { name: 'phone' | 'desktop'; width: number; height: number }) {
  let paths: PagePaths
  test.beforeAll(async () => {
    paths = await pagePaths()
  })
  for (const p of PORTAL_PAGES)
    test(`${p.name} at ${viewport.width}×${viewport.height}: ${viewport.name === 'phone' ? 'no sideways scrolling, ' : ''}no serious accessibility violations`, async ({
      browser,
    }) => {
      const context = await browser.newContext({ viewport, ...(p.signedOut ? { storageState: { cookies: [], origins: [] } } : {}) })
      const page = await context.newPage()
      const errors: string[] = []
      page.on('pageerror', (e) => errors.push(e.message))
      await open(page, p, paths)
      if (viewport.name === 'phone') expect(await horizontalOverflow(page), `${p.name}: sideways scrolling at ${viewport.width} px`).toEqual([])
      expect(await seriousViolations(page), `${p.name}: axe-core, serious and critical`).toEqual([])
      await page.screenshot({ path: `${SCREENSHOTS}/${p.name}-${viewport.width}.png`, fullPage: true })
      expect(errors).toEqual([])
      await context.close()
    })
}
