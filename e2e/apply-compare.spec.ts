import AxeBuilder from '@axe-core/playwright'
import { expect, type Page, test } from '@playwright/test'

// Apply keeps its answer, two agents side by side, and the finish of the explainer and the charts, on
// the desktop and the phone: a dry run warns about a Tool that would fail (its host does not resolve,
// its Secret does not exist) and the impact stays on screen after Apply, the diff reads as YAML; the
// agent page compares its set with another agent's, with why not and the fix; the explainer starts
// from the tool's required arguments and moves focus to its answer; charts are named and say what
// they show; the dashboard's tiles do not break words; dark mode follows the system.

test.describe.configure({ mode: 'serial' })

const suffix = Date.now().toString(36)
const SHOTS = '.data/test-reports/screenshots'
const VIEWPORTS = [
  { name: 'desktop', width: 1440, height: 900 },
  { name: 'phone', width: 390, height: 844 },
]

function watchErrors(page: Page): string[] {
  const errors: string[] = []
  page.on('pageerror', (e) => errors.push(e.message))
  return errors
}

const manifest = (ns: string, approval: boolean) => `apiVersion: toolroom.dev/v1alpha1
kind: Tool
metadata: { name: billing_${suffix}.lookup, namespace: ${ns} }
spec:
  type: rest
  description: Looks an invoice up
  inputSchema: { type: object }
  sideEffects: { level: read_only${approval ? ', requiresApproval: true' : ''} }
  endpoint:
    method: GET
    url: "http://billing.no-such-host.invalid/invoices"
    auth: { type: bearer, secretRef: { name: billing-token } }
---
apiVersion: toolroom.dev/v1alpha1
kind: Agent
metadata: { name: invoicer, namespace: ${ns} }
spec: { grants: [billing_${suffix}.lookup] }
`

/** Types into the CodeMirror editor the whole text (fill replaces what is there). */
const fillEditor = (page: Page, text: string) => page.getByLabel('Manifest').fill(text)

for (const viewport of VIEWPORTS) {
  test(`a dry run warns about what would fail, Apply keeps the impact, the diff is YAML (${viewport.name})`, async ({ page }) => {
    await page.setViewportSize(viewport)
    const errors = watchErrors(page)
    const ns = `e2e-keep-${viewport.name}-${suffix}`
    await page.goto('/apply')
    await fillEditor(page, manifest(ns, false))
    await page.getByRole('button', { name: 'Validate' }).click()

    const warnings = page.getByTestId('apply-warnings')
    await expect(warnings).toContainText('2 warnings: valid, but would fail once applied')
    await expect(warnings.locator('[data-reason="SecretNotFound"]')).toContainText(`Secret "${ns}/billing-token" does not exist`)
    await expect(warnings.locator('[data-reason="HostNotResolved"]')).toContainText('billing.no-such-host.invalid does not resolve')
    await expect(page.getByTestId('apply-impact-row').filter({ hasText: `billing_${suffix}.lookup` })).toHaveCount(1)
    await warnings.scrollIntoViewIfNeeded()
    await page.screenshot({ path: `${SHOTS}/apply-warnings-${viewport.name}.png` })

    await page.getByRole('button', { name: 'Apply', exact: true }).click()
    await expect(page.getByText('Applied.')).toBeVisible()
    // The dry run's answer stays: its impact (said to be the dry run's) and its warnings.
    await expect(page.getByTestId('apply-impact')).toContainText('as the dry run of this manifest worked it out before the apply')
    await expect(page.getByTestId('apply-impact-row').filter({ hasText: `billing_${suffix}.lookup` })).toHaveCount(1)
    await expect(page.getByTestId('apply-warning')).toHaveCount(2)

    // A change: its diff reads as YAML, and its impact again stays after Apply.
    await fillEditor(page, manifest(ns, true))
    await page.getByRole('button', { name: 'Validate' }).click()
    const diff = page.getByTestId('apply-diff')
    await expect(diff).toContainText('spec.sideEffects.requiresApproval: true')
    await expect(diff).not.toContainText('"spec.sideEffects.requiresApproval"')
    await expect(page.locator('[data-testid="apply-impact-row"][data-change="changed"]')).toContainText('needs approval')
    await diff.scrollIntoViewIfNeeded()
    await page.screenshot({ path: `${SHOTS}/apply-yaml-diff-${viewport.name}.png` })
    await page.getByRole('button', { name: 'Apply', exact: true }).click()
    await expect(page.getByText('Applied.')).toBeVisible()
    await expect(page.locator('[data-testid="apply-impact-row"][data-change="changed"]')).toHaveCount(1)
    await page.getByTestId('apply-impact').scrollIntoViewIfNeeded()
    await page.screenshot({ path: `${SHOTS}/apply-kept-${viewport.name}.png` })
    expect(errors).toEqual([])
  })

  test(`two agents side by side: what only one can call, why not, and the fix (${viewport.name})`, async ({ page }) => {
    await page.setViewportSize(viewport)
    const errors = watchErrors(page)
    await page.goto('/agents/support-triage?namespace=support')
    const panel = page.locator('#compare')
    await panel.getByLabel('Agent (namespace/name)').fill('support/support-faq')
    await panel.getByRole('button', { name: 'Compare', exact: true }).click()
    const result = panel.getByTestId('compare-result')
    await expect(result).toBeFocused()
    const row = panel.getByTestId('compare-only-left').locator('[data-testid="compare-row"][data-tool="zendesk.reply_to_customer"]')
    await expect(row).toContainText('connector:zendesk (from unit support)')
    await expect(row).toContainText('disabled')
    await expect(row).toContainText('disabled by a toggle on agent "support-faq"')
    const fix = row.getByTestId('fix-link')
    await expect(fix).toContainText('turn zendesk.reply_to_customer on for agent support-faq')
    await result.scrollIntoViewIfNeeded()
    // Long sources (an image digest) wrap: nothing makes the page scroll sideways on the phone.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width)
    await page.screenshot({ path: `${SHOTS}/compare-agents-${viewport.name}.png` })

    // A unit instead of an agent.
    await panel.getByLabel('Compare with').selectOption('Unit')
    await panel.getByLabel('Unit (namespace/name)').fill('support/support-escalations')
    await panel.getByRole('button', { name: 'Compare', exact: true }).click()
    await expect(panel.getByTestId('compare-result')).toContainText('unit support/support-escalations')

    await panel.getByTestId('fix-link').first().click()
    await expect(page).toHaveURL(/\/apply\?draft=/)
    expect(errors).toEqual([])
  })

  test(`the explainer starts from the tool's required arguments and moves focus to its answer (${viewport.name})`, async ({ page }) => {
    await page.setViewportSize(viewport)
    const errors = watchErrors(page)
    await page.goto('/agents/platform-dev-bot?namespace=platform')
    const panel = page.locator('#explain')
    await page
      .locator('[data-testid="tool-name-card"][data-tool-name="github.create_issue"]')
      .getByRole('button', { name: /Explain/ })
      .click()
    const args = panel.getByLabel('Arguments (JSON)')
    await expect(args).toHaveValue(/"repo": /)
    await expect(args).toHaveValue(/"title": /)
    await expect(panel.getByTestId('explain-trace')).toBeVisible()
    await expect(panel.getByTestId('explain-answer')).toBeFocused()
    await page.screenshot({ path: `${SHOTS}/explain-prefilled-${viewport.name}.png` })

    // Arguments the person wrote are theirs: picking another tool keeps them.
    await args.fill('{"owner": "northwind"}')
    await panel.getByLabel('Tool', { exact: true }).fill('github.list_repos')
    await expect(args).toHaveValue('{"owner": "northwind"}')
    expect(errors).toEqual([])
  })

  test(`charts are named and readable as text, tiles keep their words, dark mode follows the system (${viewport.name})`, async ({ page }) => {
    await page.setViewportSize(viewport)
    const errors = watchErrors(page)
    await page.goto('/')
    const chart = page.getByRole('img', { name: 'Calls per day' })
    await expect(chart).toBeVisible()
    const figure = page.getByTestId('chart').first()
    await expect(figure.locator('figcaption')).toContainText(/^Calls per day, \d+ points from .* succeeded or refused: total/)
    await figure.getByText('Show as a table').click()
    await expect(figure.getByRole('table', { name: 'Calls per day' })).toBeVisible()
    // Every tick label is inside the chart: none is cut off at the edges.
    const box = (await chart.boundingBox())!
    for (const tick of await chart.locator('.recharts-cartesian-axis-tick-value').all()) {
      const t = await tick.boundingBox()
      if (!t) continue
      expect(t.x).toBeGreaterThanOrEqual(box.x - 0.5)
      expect(t.x + t.width).toBeLessThanOrEqual(box.x + box.width + 0.5)
    }
    // A tile's label is one line: "LanguageTools" is not broken inside the word.
    const tile = page.locator('main').getByRole('link', { name: /^LanguageTools\s*\d/i })
    const label = tile.locator('p').first()
    const lineHeight = await label.evaluate((p) => parseFloat(getComputedStyle(p).lineHeight))
    expect((await label.boundingBox())!.height).toBeLessThan(lineHeight * 1.5)
    await page.screenshot({ path: `${SHOTS}/dashboard-finish-${viewport.name}.png` })

    await page.emulateMedia({ colorScheme: 'dark' })
    // The page and a card are dark: their colours' lightness (oklch's first number, or rgb's channels) is low.
    const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor)
    const card = await page
      .locator('main section')
      .first()
      .evaluate((s) => getComputedStyle(s).backgroundColor)
    for (const color of [background, card]) {
      const numbers = (color.match(/[\d.]+/g) ?? []).map(Number)
      if (color.startsWith('rgb')) expect(numbers[0] + numbers[1] + numbers[2], color).toBeLessThan(200)
      else expect(numbers[0] > 1 ? numbers[0] / 100 : numbers[0], color).toBeLessThan(0.3)
    }
    await page.screenshot({ path: `${SHOTS}/dashboard-dark-${viewport.name}.png` })
    const result = await new AxeBuilder({ page }).analyze()
    expect(result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.length}`)).toEqual([])
    expect(errors).toEqual([])
  })
}
