import fs from 'node:fs'
import path from 'node:path'
import AxeBuilder from '@axe-core/playwright'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { type APIRequestContext, expect, type Page, request as playwrightRequest, test } from '@playwright/test'
import { ADMIN_STATE } from './global-setup'
import { agentClient } from './support/approvals'
import { PORTAL_PAGES, type PortalPage } from './support/portal-pages'
import { signInAs } from './support/sign-in'

// Every page of the portal on a phone (390×844) and a desktop (1440×900): it renders, nothing makes
// the page scroll sideways on the phone, and axe-core finds no serious or critical accessibility
// violation at either size. Then the same walk as a viewer: no page offers a change the role cannot
// make. Screenshots land in .data/test-reports/screenshots/pages/ for a person to look at.

const BASE_URL = process.env.E2E_BASE_URL!
const SCREENSHOTS = '.data/test-reports/screenshots/pages'
const VIEWPORTS = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'desktop', width: 1440, height: 900 },
] as const

let admin: APIRequestContext
let agent: Client | null = null
const paths = new Map<string, string>()

test.beforeAll(async () => {
  admin = await playwrightRequest.newContext({ baseURL: BASE_URL, storageState: ADMIN_STATE, extraHTTPHeaders: { origin: BASE_URL } })
  for (const p of PORTAL_PAGES) paths.set(p.name, typeof p.path === 'string' ? p.path : await p.path(admin))
  // Real requests in the queue and calls in the explorer, so their rows are walked too: the demo AP
  // clerk asks for two payments (financial, approval required) through the gateway. Once per run: a
  // worker that restarts after a failed test finds them waiting (the tool allows 2 calls a minute).
  const waiting = await (await admin.get('/api/v1/approvals?status=pending&tool=erp.schedule_payment&limit=1')).json()
  if (waiting.total > 0) return
  const clerk = await (await admin.get('/api/v1/agents/ap-clerk?namespace=finance')).json()
  const credential = await admin.post(`/api/v1/agents/${clerk.id}/credentials`, { data: { name: `e2e every page ${Date.now().toString(36)}` } })
  expect(credential.status(), await credential.text()).toBe(201)
  agent = await agentClient(BASE_URL, (await credential.json()).token)
  // Invoice numbers of this run: the tool's idempotency key is made of them, and a repeat of an
  // earlier run's call would be answered with that call's outcome.
  const serial = Date.now() % 999_000
  for (const [invoiceId, amount] of [
    [`AP-2026-${String(serial).padStart(6, '0')}`, 4820000],
    [`AP-2026-${String(serial + 1).padStart(6, '0')}`, 9999],
  ] as const) {
    const answer = await agent.callTool({ name: 'erp.schedule_payment', arguments: { invoiceId, amount, currency: 'EUR', paymentDate: '2026-12-01' } })
    expect(answer.structuredContent, JSON.stringify(answer)).toMatchObject({ status: 'approval_required' })
  }
})

test.afterAll(async () => {
  // Leaves the queue as it found it (the last worker's afterAll runs after every test of the file).
  const pending = await (await admin.get('/api/v1/approvals?status=pending&tool=erp.schedule_payment&limit=100')).json()
  for (const a of pending.items as { id: string }[]) await admin.post(`/api/v1/approvals/${a.id}/deny`, { data: { comment: 'end of the every-page walk' } })
  await agent?.close()
  await admin?.dispose()
})

/** Routes of every page.tsx under app/, as `/agents/[id]` (route groups left out). */
function pageRoutes(): string[] {
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

test('the walk lists every page of the portal', () => {
  const listed = new Set(PORTAL_PAGES.map((p) => p.route))
  expect(
    pageRoutes().filter((r) => !listed.has(r)),
    'pages missing from e2e/support/portal-pages.ts',
  ).toEqual([])
  expect(fs.existsSync(path.resolve('app/not-found.tsx'))).toBe(true)
})

/**
 * What went wrong in the page while it loaded: script errors, console errors, requests that failed
 * and requests still unanswered. A panel that never stops loading is then told apart from a page
 * that never hydrated or an API read that never returned.
 */
function watchLoading(page: Page) {
  const problems: string[] = []
  const unanswered = new Set<string>()
  page.on('pageerror', (e) => problems.push(`script error: ${e.message}`))
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console error: ${m.text()}`)
  })
  page.on('request', (r) => unanswered.add(`${r.method()} ${r.url()}`))
  page.on('requestfinished', (r) => unanswered.delete(`${r.method()} ${r.url()}`))
  page.on('requestfailed', (r) => {
    unanswered.delete(`${r.method()} ${r.url()}`)
    problems.push(`request failed: ${r.method()} ${r.url()}: ${r.failure()?.errorText}`)
  })
  return () => [...problems, ...[...unanswered].map((r) => `no answer yet: ${r}`)].join('\n') || 'no script error, console error or failed request'
}

async function open(page: Page, p: PortalPage) {
  const seen = watchLoading(page)
  const response = await page.goto(paths.get(p.name)!)
  expect(response?.status(), `${p.name}: HTTP status`).toBe(p.status ?? 200)
  await expect(page.getByRole('heading', { level: 1, name: p.heading }).first()).toBeVisible()
  await page.waitForLoadState('networkidle')
  // Lists and panels load after the page: wait until none says it is still loading.
  await expect(page.getByRole('status').filter({ hasText: /^Loading/ }))
    .toHaveCount(0, { timeout: 30_000 })
    .catch((e: Error) => {
      throw new Error(`${p.name}: still loading after 30 s. In the page:\n${seen()}\n\n${e.message}`)
    })
}

/** What scrolls sideways: the page itself, or any box that is not code (code may scroll; it is reachable by keyboard). */
function horizontalOverflow(page: Page) {
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

async function seriousViolations(page: Page) {
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

for (const viewport of VIEWPORTS)
  for (const p of PORTAL_PAGES)
    test(`${p.name} at ${viewport.width}×${viewport.height}: ${viewport.name === 'phone' ? 'no sideways scrolling, ' : ''}no serious accessibility violations`, async ({
      browser,
    }) => {
      const context = await browser.newContext({ viewport, ...(p.signedOut ? { storageState: { cookies: [], origins: [] } } : {}) })
      const page = await context.newPage()
      const errors: string[] = []
      page.on('pageerror', (e) => errors.push(e.message))
      await open(page, p)
      if (viewport.name === 'phone') expect(await horizontalOverflow(page), `${p.name}: sideways scrolling at ${viewport.width} px`).toEqual([])
      expect(await seriousViolations(page), `${p.name}: axe-core, serious and critical`).toEqual([])
      await page.screenshot({ path: `${SCREENSHOTS}/${p.name}-${viewport.width}.png`, fullPage: true })
      expect(errors).toEqual([])
      await context.close()
    })

/** Buttons that change something; a viewer may read everything but do none of this. */
const CHANGES =
  /^(apply|save|delete|remove|revoke|rotate|refresh now|approve|deny|accept|reject|issue|create|add|upload|disable|enable|reset password|new token|new credential)\b/i
/** What every role may do for itself: an API token within its own role (POST /api/v1/tokens needs only read). */
const OWN = /^create token$/i

test('a viewer walking every page is offered no change it could not make', async ({ browser }) => {
  test.setTimeout(PORTAL_PAGES.length * 30_000)
  const viewer = await signInAs(browser, 'viewer', { viewport: { width: 1440, height: 900 } })
  const offered: string[] = []
  for (const p of PORTAL_PAGES.filter((x) => !x.signedOut)) {
    await open(viewer.page, p)
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
