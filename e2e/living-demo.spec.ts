import { type ChildProcess, spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import AxeBuilder from '@axe-core/playwright'
import { type BrowserContext, expect, type Page, test } from '@playwright/test'

// A newcomer's first minute, at 1440×900 and on a 390×844 phone: the dashboard's Getting started
// checklist (following real state) and `?` for the keyboard shortcuts on the shared e2e server; then a
// demo of its own, `npm start` from nothing, whose dashboard shows calls, failures and calls waiting for
// approval within a minute of ready (a week of history, and its agents calling through the gateway).

const SCREENSHOTS = '.data/test-reports/screenshots'
const SIZES = [
  { name: 'desktop', width: 1440, height: 900 },
  { name: 'phone', width: 390, height: 844 },
] as const

async function seriousViolations(page: Page) {
  const result = await new AxeBuilder({ page }).analyze()
  return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.help} (${v.nodes[0]?.target.join(' ')})`)
}

for (const size of SIZES)
  test(`at ${size.width}×${size.height}, the dashboard says what to do first, and ? shows the keyboard shortcuts`, async ({ browser }) => {
    const context = await browser.newContext({ viewport: { width: size.width, height: size.height } })
    const page = await context.newPage()
    await page.goto('/')
    const checklist = page.getByRole('list', { name: 'First steps' })
    await expect(checklist.getByRole('listitem')).toHaveCount(5)
    await expect(checklist).toContainText('Connect an MCP server')
    await expect(checklist).toContainText('See it here')
    // What it says is done is what the overview says is there.
    const facts = (await (await page.request.get('/api/v1/overview')).json()).firstRun as Record<string, boolean>
    const done = Object.values(facts).filter(Boolean).length
    await expect(checklist.locator('li[data-done="true"]')).toHaveCount(done)
    await expect(page.getByText(`${done} of 5 done`)).toBeVisible()
    await page.screenshot({ path: `${SCREENSHOTS}/getting-started-${size.width}.png` })

    // ? opens the shortcuts; Escape closes them and gives the focus back.
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).click()
    await page.keyboard.press('?')
    const dialog = page.getByRole('dialog', { name: 'Keyboard shortcuts' })
    await expect(dialog).toBeVisible()
    await expect(dialog).toContainText('Search everything')
    await expect(dialog).toContainText('Approvals queue')
    await expect(dialog.getByRole('button', { name: 'Close' })).toBeFocused()
    expect(await seriousViolations(page)).toEqual([])
    await page.screenshot({ path: `${SCREENSHOTS}/keyboard-shortcuts-${size.width}.png` })
    await page.keyboard.press('Escape')
    await expect(dialog).toBeHidden()

    // In a field that takes text, ? is a character.
    await page.keyboard.press('Control+k')
    const search = page.getByRole('combobox').first()
    await expect(search).toBeFocused()
    await page.keyboard.type('?')
    await expect(search).toHaveValue('?')
    await expect(page.getByRole('dialog', { name: 'Keyboard shortcuts' })).toHaveCount(0)
    await page.keyboard.press('Escape')

    // Hidden stays hidden, in this browser.
    await page.getByRole('button', { name: 'Hide' }).click()
    await expect(checklist).toBeHidden()
    await page.reload()
    await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible()
    await expect(page.getByRole('list', { name: 'First steps' })).toHaveCount(0)

    // A bogus id is the 404 page, with status 404, not a page titled with the id.
    expect((await page.goto('/agents/not-an-agent'))?.status()).toBe(404)
    await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible()
    await context.close()
  })

// Ports of its own (and free demo endpoint ports: TOOLROOM_DEMO_PORT=0), so it runs beside anything.
const PORT = 3991
const PG_PORT = 55661

test('npm start from nothing: within a minute of ready, the demo’s dashboard shows calls, failures and calls waiting for approval', async ({ browser }) => {
  test.setTimeout(420_000)
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'toolroom-living-demo-'))
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    TOOLROOM_DATA_DIR: path.join(root, '.data'),
    PORT: String(PORT),
    TOOLROOM_EMBEDDED_PG_PORT: String(PG_PORT),
    TOOLROOM_DEMO_PORT: '0',
  }
  for (const key of ['DATABASE_URL', 'TOOLROOM_SECRET_KEY', 'E2E_BASE_URL', 'TOOLROOM_ADMIN_TOKEN', 'TOOLROOM_DEMO_TRAFFIC']) delete env[key]
  let output = ''
  const child: ChildProcess = spawn('npm', ['start'], { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] })
  child.stdout!.on('data', (d) => (output += d))
  child.stderr!.on('data', (d) => (output += d))
  try {
    await expect.poll(() => /ready at |\[toolroom\] stopped/.test(output), { timeout: 300_000, intervals: [500] }).toBe(true)
    expect(output, 'it came up').toMatch(/ready at http:\/\/127\.0\.0\.1:3991/)
    expect(output).toMatch(/demo fleet: a week of history, \d+ calls/)
    const base = `http://127.0.0.1:${PORT}`

    // Signed in once through the demo's sign-in page; the phone opens the dashboard with that session.
    let signedIn: Awaited<ReturnType<BrowserContext['storageState']>> | undefined
    for (const size of SIZES) {
      const context = await browser.newContext({
        baseURL: base,
        viewport: { width: size.width, height: size.height },
        storageState: signedIn ?? { cookies: [], origins: [] },
      })
      const page = await context.newPage()
      if (signedIn) await page.goto('/')
      else {
        await page.goto('/sign-in')
        await page.getByLabel('Email').fill('admin@toolroom.local')
        await page.getByLabel('Password').fill('toolroom-demo-admin')
        await page.getByRole('button', { name: 'Sign in', exact: true }).click()
        await page.waitForURL((url) => url.pathname === '/')
        signedIn = await context.storageState()
      }

      // A headline number of the dashboard's call statistics (components/stats/figure.tsx), as a number.
      const figure = async (label: string) => {
        const value = page
          .locator('.call-stats div')
          .filter({ has: page.locator('p', { hasText: new RegExp(`^${label}$`) }) })
          .last()
          .locator('p')
          .nth(1)
        return Number(((await value.textContent()) ?? '').replace(/\D/g, '') || '0')
      }
      await expect(page.locator('.call-stats').getByText('Calls', { exact: true })).toBeVisible()
      // The week of history is there from the start: calls and failures, the failing tool on top.
      expect(await figure('Calls')).toBeGreaterThan(100)
      expect(await figure('Failures')).toBeGreaterThan(0)
      await expect(page.getByText('No failed calls in the last 7 days')).toHaveCount(0)
      await expect(page.getByText('zendesk.search_tickets').first()).toBeVisible()
      // The agents at work: calls held for approval show in the queue card within the minute.
      const waiting = page.getByTestId('approval-queue-stats').locator('dd').first()
      await expect(async () => {
        await page.reload()
        expect(Number((await waiting.textContent())?.replace(/\D/g, '') || '0')).toBeGreaterThan(0)
      }).toPass({ timeout: 60_000, intervals: [3_000] })
      // The figures are back after the last reload before the picture is taken.
      await expect(page.locator('.call-stats').getByText('Calls', { exact: true })).toBeVisible()
      await expect(page.getByText('zendesk.search_tickets').first()).toBeVisible()
      await page.screenshot({ path: `${SCREENSHOTS}/living-demo-${size.width}.png`, fullPage: size.name === 'desktop' })
      expect(await seriousViolations(page)).toEqual([])
      await context.close()
    }
    // Every demo MCP server is reachable but the one labelled an in-cluster example.
    const session = await fetch(`${base}/api/v1/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: base },
      body: JSON.stringify({ email: 'admin@toolroom.local', password: 'toolroom-demo-admin' }),
    })
    const cookie = session.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ')
    await expect
      .poll(
        async () => {
          const servers = await (await fetch(`${base}/api/v1/languagetools?limit=50`, { headers: { cookie } })).json()
          return servers.items
            .filter((s: { status?: { phase?: string } }) => s.status?.phase !== 'Ready')
            .map((s: { metadata: { name: string } }) => s.metadata.name)
            .sort()
        },
        { timeout: 60_000, intervals: [2_000] },
      )
      .toEqual(['pagerduty-mcp'])
  } finally {
    try {
      process.kill(-child.pid!, 'SIGINT')
    } catch {
      // already gone
    }
    await new Promise<void>((resolve) => (child.exitCode !== null ? resolve() : child.once('exit', () => resolve())))
    fs.rmSync(root, { recursive: true, force: true })
  }
})
