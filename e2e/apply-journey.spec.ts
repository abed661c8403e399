import { expect, type Page, test } from '@playwright/test'
import { manifestFixed, manifestWithProblems, problemsOfManifest } from '../tests/support/manifest-with-problems'

// Apply as an editor: a manifest with several problems in several documents is validated once and
// every problem is marked at its line (each listed one jumps there); completion offers the kind's
// keys and values; once fixed, the dry run says what would change and the apply writes it. A link's
// `?draft=` prefills the editor. Desktop and phone.

const suffix = Date.now().toString(36)
const SCREENSHOTS = '.data/test-reports/screenshots'
const ns = `e2e-apply-${suffix}`
const tool = `weather_${suffix}.forecast`
const names = { namespace: ns, tool, agent: 'forecaster' }

const editor = (page: Page) => page.getByLabel('Manifest')
/**
 * Accepts the selected completion. The editor ignores Enter until its list has been open 75 ms
 * (CodeMirror's interactionDelay), so a quick typist's Enter is a newline: the list is open at least
 * since this test saw it, and the page's own clock says when that delay has passed.
 */
async function accept(page: Page) {
  await expect(page.locator('.cm-tooltip-autocomplete li[aria-selected]')).toHaveCount(1)
  const seenAt = await page.evaluate(() => Date.now())
  await page.waitForFunction((since) => Date.now() - since > 75, seenAt)
  await page.keyboard.press('Enter')
}

/** The line the cursor is on, as the editor's gutter shows it. */
const cursorLine = async (page: Page) => Number(await page.locator('.cm-activeLineGutter').first().textContent())

function watchErrors(page: Page): string[] {
  const errors: string[] = []
  page.on('pageerror', (e) => errors.push(e.message))
  // A refused manifest is a 422 answer, which the browser logs as a failed load: that one is expected.
  page.on('console', (m) => m.type() === 'error' && !/status of 422 /.test(m.text()) && errors.push(m.text()))
  return errors
}

test.describe.configure({ mode: 'serial' })

for (const viewport of [
  { name: 'desktop', width: 1440, height: 900 },
  { name: 'phone', width: 390, height: 844 },
]) {
  test(`paste a manifest with several problems → all marked at their lines → fix → dry run → apply (${viewport.name})`, async ({ page }) => {
    await page.setViewportSize(viewport)
    const agent = viewport.name === 'desktop' ? 'forecaster' : 'forecaster-m'
    const errors = watchErrors(page)
    await page.goto('/apply')
    await editor(page).fill(manifestWithProblems({ ...names, agent }))
    await expect(page.locator('.cm-lineNumbers .cm-gutterElement').filter({ hasText: /^25$/ })).toBeVisible()
    await page.getByRole('button', { name: 'Validate' }).click()

    // One round: every problem, in text order, each at its line.
    const problems = page.getByTestId('apply-errors').getByTestId('field-error')
    await expect(problems).toHaveCount(6)
    const lines = await problems.evaluateAll((rows) => rows.map((r) => Number(r.getAttribute('data-line'))))
    expect(lines).toEqual(problemsOfManifest(expect.any(Number)).map((p) => p.line))
    await expect(problems.nth(1)).toContainText('spec.description')
    await expect(page.getByText('6 problems marked')).toBeVisible()
    // The editor marks them: a marker in the gutter beside each line, an underline on each place.
    await expect(page.locator('.cm-lintRange-error')).toHaveCount(6)
    await expect(page.locator('.cm-gutter-lint .cm-lint-marker-error')).toHaveCount(new Set(lines).size)
    // A listed problem takes the cursor to its line.
    await problems
      .nth(4)
      .getByRole('button', { name: /^Go to line 23/ })
      .click()
    expect(await cursorLine(page)).toBe(23)
    await problems
      .nth(1)
      .getByRole('button', { name: /^Go to line 8/ })
      .click()
    expect(await cursorLine(page)).toBe(8)
    await page.screenshot({ path: `${SCREENSHOTS}/apply-problems-${viewport.name}.png`, fullPage: true })

    // Completion from the kind's schema: keys of a Tool's spec, then a key further in and its values.
    const head = `apiVersion: toolroom.dev/v1alpha1\nkind: Tool\nmetadata:\n  name: ${tool}\nspec:\n`
    const options = page.locator('.cm-tooltip-autocomplete li')
    await editor(page).fill(`${head}  `)
    await page.keyboard.press('Control+End')
    await page.keyboard.type('sideEff')
    await expect(options.first()).toContainText('sideEffects')
    await accept(page)
    await expect(page.locator('.cm-line').last()).toHaveText('  sideEffects: ')
    await editor(page).fill(`${head}  sideEffects:\n    `)
    await page.keyboard.press('Control+End')
    await page.keyboard.type('lev')
    await expect(options.first()).toContainText('level')
    await accept(page)
    await page.keyboard.type('fin')
    await expect(options).toHaveCount(1)
    await expect(options.first()).toContainText('financial')
    await page.screenshot({ path: `${SCREENSHOTS}/apply-completion-${viewport.name}.png` })
    await accept(page)
    await expect(page.locator('.cm-line').last()).toHaveText('    level: financial')

    // Fixed: the dry run says what would happen and writes nothing; the apply writes it.
    await editor(page).fill(manifestFixed({ ...names, agent }))
    await page.getByRole('button', { name: 'Validate' }).click()
    const results = page.getByTestId('apply-results')
    await expect(results).toContainText('Valid. Dry run: nothing was written.')
    await expect(page.locator('.cm-lintRange-error')).toHaveCount(0)
    expect((await page.request.get(`/api/v1/agents/${agent}?namespace=${ns}`)).status()).toBe(404)
    await page.getByRole('button', { name: 'Apply', exact: true }).click()
    await expect(results).toContainText('Applied.')
    // The applied document's row links the agent first; the dry run's impact, kept on screen, links it again.
    await expect(results.getByRole('link', { name: `${ns}/${agent}` }).first()).toHaveAttribute('href', /^\/agents\/[0-9a-f-]{36}$/)
    expect((await page.request.get(`/api/v1/agents/${agent}?namespace=${ns}`)).status()).toBe(200)
    await page.screenshot({ path: `${SCREENSHOTS}/apply-applied-${viewport.name}.png`, fullPage: true })
    expect(errors).toEqual([])
  })
}

test("a dry run of a change shows each document's field diff and the impact on agents", async ({ page }) => {
  const errors = watchErrors(page)
  await page.setViewportSize({ width: 1440, height: 900 })
  await page.goto('/apply')
  await editor(page).fill(manifestFixed(names, 'A changed forecast.'))
  await page.getByRole('button', { name: 'Validate' }).click()
  const row = page.locator('[data-testid="apply-result-row"][data-action="updated"]')
  await expect(row).toHaveCount(1)
  const diff = page.getByTestId('apply-diff')
  await expect(diff).toContainText('spec.description')
  await expect(diff).toContainText('A changed forecast.')
  await expect(diff).toContainText('The forecast for a city.')
  await expect(page.getByTestId('apply-impact')).toContainText('agents checked')
  await page.screenshot({ path: `${SCREENSHOTS}/apply-dry-run-diff.png`, fullPage: true })
  expect(errors).toEqual([])
})

test('a link with ?draft= prefills the editor and applies nothing', async ({ page }) => {
  const errors = watchErrors(page)
  const draft = `apiVersion: toolroom.dev/v1alpha1\nkind: Agent\nmetadata: { name: drafted-${suffix}, namespace: ${ns} }\nspec:\n  grants: [${tool}]\n`
  await page.goto(`/apply?draft=${encodeURIComponent(draft)}`)
  await expect(page.getByTestId('draft-notice')).toBeVisible()
  await expect(editor(page)).toContainText(`name: drafted-${suffix}`)
  await expect(page.locator('.cm-lineNumbers .cm-gutterElement').filter({ hasText: /^5$/ })).toBeVisible()
  expect((await page.request.get(`/api/v1/agents/drafted-${suffix}?namespace=${ns}`)).status()).toBe(404)
  await page.getByRole('button', { name: 'Validate' }).click()
  await expect(page.getByTestId('apply-results')).toContainText('would be created')
  expect(errors).toEqual([])
})
