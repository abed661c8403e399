import { expect, type Page, test } from '@playwright/test'
import { openAs } from './support/sign-in'

// "Can agent X call tool Y?" as operators walk it on the demo fleet: the agent page starts with the
// tool set (searchable, filterable, one card per name, shared reasons said once, "inherited from
// unit" in the configuration), each "why not" links to its fix as an Apply draft, the explain panel
// gives the gateway's trace for a call, and a Tool's page lists the agents it reaches.
const SHOTS = '.data/test-reports/screenshots'
const DEV_BOT = '/agents/platform-dev-bot?namespace=platform'

function pageErrors(page: Page) {
  const errors: string[] = []
  page.on('pageerror', (e) => errors.push(e.message))
  return errors
}

async function shoot(page: Page, name: string) {
  for (const [width, height] of [
    [1440, 900],
    [390, 844],
  ]) {
    await page.setViewportSize({ width, height })
    // The new width's layout is painted once two frames have been drawn after the resize.
    await page.evaluate(() => new Promise((painted) => requestAnimationFrame(() => requestAnimationFrame(painted))))
    await page.screenshot({ path: `${SHOTS}/${name}-${width}.png`, fullPage: false })
  }
  await page.setViewportSize({ width: 1366, height: 768 })
}

const card = (page: Page, name: string) => page.locator(`[data-testid="tool-name-card"][data-tool-name="${name}"]`)

test('the agent page starts with the tool set: search, filters, shared reasons once, and "inherited from unit"', async ({ page }) => {
  const errors = pageErrors(page)
  await page.setViewportSize({ width: 1440, height: 900 })
  await page.goto(DEV_BOT)
  const set = page.locator('#tool-set')
  await expect(set).toBeVisible()
  await expect(card(page, 'github.create_issue')).toBeVisible()
  // The set is the first thing under the header, above the fold, before the configuration and the statistics.
  const setTop = (await set.boundingBox())!.y
  expect(setTop).toBeLessThan(300)
  expect(setTop).toBeLessThan((await page.locator('section', { has: page.getByRole('heading', { name: 'Configuration' }) }).boundingBox())!.y)
  expect(setTop).toBeLessThan((await page.locator('.call-stats').boundingBox())!.y)
  await shoot(page, 'agent-tool-set')

  // One card per name; the MCP server's copy of a connector's tool is cited, not repeated.
  await expect(card(page, 'github.create_issue')).toHaveCount(1)
  await expect(card(page, 'github.create_issue').getByText(/also mcp:github: left out \(1\)/)).toBeVisible()
  const reason = page.getByTestId('repeated-reason').first()
  await expect(reason).toContainText('"github.*" is reserved for connector "github"')
  await expect(reason).toContainText(/×\d+/)

  await page.getByLabel('Search tools').fill('merge')
  await expect(page.getByTestId('tool-name-card')).toHaveCount(1)
  await expect(card(page, 'github.merge_pull_request')).toBeVisible()
  await page.getByLabel('Search tools').fill('')
  await page.getByRole('button', { name: 'Not callable' }).click()
  for (const verdict of await page.getByTestId('tool-name-card').evaluateAll((cards) => cards.map((c) => c.getAttribute('data-verdict'))))
    expect(['denied', 'disabled']).toContain(verdict)
  await page.getByRole('button', { name: 'All', exact: true }).click()

  // The configuration says where the bindings come from instead of "none".
  await expect(page.getByTestId('bindings-connectors')).toContainText('inherited from unit platform-ops')
  await expect(page.getByTestId('bindings-grants')).toContainText('inherited from unit platform-ops')
  expect(errors).toEqual([])
})

test('"why not" links to its fix: an Apply draft that validates', async ({ page }) => {
  const errors = pageErrors(page)
  await page.goto(DEV_BOT)
  const denied = card(page, 'github.merge_pull_request')
  await expect(denied).toHaveAttribute('data-verdict', 'denied')
  const whyNot = denied.getByTestId('why-not')
  await expect(whyNot).toContainText('is not in safety.allowedAgents')
  const fix = whyNot.getByTestId('fix-link')
  await expect(fix).toContainText('add platform-dev-bot to safety.allowedAgents of Tool platform/github.merge_pull_request')
  await fix.click()

  await expect(page).toHaveURL(/\/apply\?draft=/)
  // The Apply editor (CodeMirror) renders only the lines in view; its copy of everything is the whole draft.
  const manifest = page.getByLabel('Manifest')
  await expect(manifest).toContainText(/kind: Tool/)
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'])
  await manifest.click()
  await page.keyboard.press('ControlOrMeta+A')
  await page.keyboard.press('ControlOrMeta+C')
  const text = await page.evaluate(() => navigator.clipboard.readText())
  expect(text).toMatch(/allowedAgents:\n\s+- release-manager\n\s+- platform-dev-bot/)
  // A dry run: the draft is a valid change of the stored Tool (nothing is written here).
  await page.getByRole('button', { name: 'Validate' }).click()
  await expect(page.getByText('updated').first()).toBeVisible()
  await shoot(page, 'apply-draft')
  expect(errors).toEqual([])
})

test("a disabled tool's fix turns it on for the agent (its own toggle)", async ({ page }) => {
  await page.goto('/agents/release-manager?namespace=platform')
  const disabled = card(page, 'kubernetes.pods_delete')
  await expect(disabled).toHaveAttribute('data-verdict', 'disabled')
  await expect(disabled.getByTestId('why-not')).toContainText('disabled by a toggle')
  await expect(disabled.getByTestId('fix-link')).toContainText('turn kubernetes.pods_delete on for agent release-manager')
})

test("explain a call: the gateway's trace for invalid arguments, a call that would run, and an unknown tool", async ({ page }) => {
  const errors = pageErrors(page)
  await page.setViewportSize({ width: 1440, height: 900 })
  await page.goto(DEV_BOT)
  const panel = page.locator('#explain')
  await panel.getByLabel('Arguments (JSON)').fill('{"owner": "northwind", "title": 3}')
  await card(page, 'github.create_issue')
    .getByRole('button', { name: /Explain/ })
    .click()
  const trace = panel.getByTestId('explain-trace')
  await expect(trace).toHaveAttribute('data-decision', 'invalid_arguments')
  await expect(panel.getByLabel('Tool', { exact: true })).toHaveValue('github.create_issue')
  await expect(trace.getByTestId('argument-violations')).toContainText('/repo')
  await expect(trace.getByTestId('argument-violations')).toContainText('/title')
  await expect(trace.locator('[data-step="arguments"]')).toHaveAttribute('data-outcome', 'refused')
  await expect(trace.locator('[data-step="rate-limits"]')).toHaveAttribute('data-outcome', 'not-reached')
  await expect(trace.getByText('never competed', { exact: true })).toBeVisible()
  await panel.scrollIntoViewIfNeeded()
  await shoot(page, 'explain-invalid')

  await panel.getByLabel('Arguments (JSON)').fill('{"owner": "northwind", "repo": "toolroom", "title": "Flaky test"}')
  await panel.getByRole('button', { name: 'Explain', exact: true }).click()
  await expect(trace).toHaveAttribute('data-decision', 'allowed')
  for (const step of ['effective-set', 'executor', 'arguments', 'policies', 'rate-limits', 'idempotency', 'approval'])
    await expect(trace.locator(`[data-step="${step}"]`)).toHaveAttribute('data-outcome', 'passed')
  await expect(trace).toContainText(/headroom now: .*\d+ of \d+ per minute \(tool\)/)

  await panel.getByLabel('Tool', { exact: true }).fill('nope.nothing')
  await panel.getByRole('button', { name: 'Explain', exact: true }).click()
  await expect(trace).toHaveAttribute('data-decision', 'unknown_tool')

  await panel.getByLabel('Arguments (JSON)').fill('{"owner": ')
  await panel.getByRole('button', { name: 'Explain', exact: true }).click()
  await expect(panel.getByRole('alert')).toContainText('not valid JSON')
  expect(errors).toEqual([])
})

test("a Tool's page lists the agents it reaches, by state", async ({ page }) => {
  const errors = pageErrors(page)
  await page.setViewportSize({ width: 1440, height: 900 })
  await page.goto('/tools/github.merge_pull_request?namespace=platform')
  const list = page.locator('#agents-with-tool')
  await expect(list.getByTestId('agent-with-tool').first()).toBeVisible()
  await expect(list.locator('[data-testid="agent-with-tool"][data-state="enabled"]')).toContainText('release-manager')
  await expect(list.locator('[data-testid="agent-with-tool"][data-state="denied"]', { hasText: 'platform-dev-bot' })).toContainText('safety.allowedAgents')
  await list.scrollIntoViewIfNeeded()
  await shoot(page, 'tool-agents')
  await list.getByRole('button', { name: /^denied \d+/ }).click()
  await expect(list.locator('[data-testid="agent-with-tool"][data-state="enabled"]')).toHaveCount(0)
  for (const state of await list.getByTestId('agent-with-tool').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-state'))))
    expect(state).toBe('denied')
  await list.getByRole('link', { name: 'platform-dev-bot' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'platform-dev-bot' })).toBeVisible()
  expect(errors).toEqual([])
})

test('a viewer is told the fix, not sent to an Apply page it cannot use', async ({ browser }) => {
  const viewer = await openAs(browser, 'viewer')
  try {
    await viewer.page.goto(DEV_BOT)
    const whyNot = card(viewer.page, 'github.merge_pull_request').getByTestId('why-not')
    await expect(whyNot).toContainText('an operator applies it')
    await expect(whyNot.getByTestId('fix-link')).toHaveCount(0)
    expect(viewer.cspViolations).toEqual([])
  } finally {
    await viewer.close()
  }
})
