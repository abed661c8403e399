import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { type APIRequestContext, expect, type Locator, type Page, request as playwrightRequest, test } from '@playwright/test'
import { ADMIN_STATE } from './global-setup'
import {
  agentClient,
  type ApprovalWorld,
  type PaymentsUpstream,
  registerApprovalWorld,
  startApprovalsWorker,
  startPaymentsUpstream,
  type Worker,
} from './support/approvals'
import { holdScripts } from './support/hold-scripts'
import { demoEmail, openAs } from './support/sign-in'

// The approval queue with every part real: an agent on the official SDK client calls a `financial`
// tool through the e2e server's /mcp; the call waits in the queue, which approvers work in Chromium;
// a worker process runs what they approve against an upstream MCP server that counts its payments.
// Each call pays its own invoice, so what the upstream did is checked per call.

test.describe.configure({ mode: 'serial' })

const BASE_URL = process.env.E2E_BASE_URL!
const suffix = Date.now().toString(36)
const SCREENSHOTS = '.data/test-reports/screenshots'

let upstream: PaymentsUpstream
let admin: APIRequestContext
let world: ApprovalWorld
let agent: Client
let worker: Worker

interface Approval {
  id: string
  callId: string
  status: string
  requestedAt: string
  args: { invoice?: string }
  decision: { by: string | null; at: string | null; comment: string | null; effectiveAt: string | null } | null
  execution: { status: string } | null
}

type ToolAnswer = { isError?: boolean; structuredContent?: Record<string, unknown>; content?: unknown }

test.beforeAll(async () => {
  upstream = await startPaymentsUpstream()
  // The admin's session (from global-setup) for the API; cookie sessions send the Origin a browser would.
  admin = await playwrightRequest.newContext({ baseURL: BASE_URL, storageState: ADMIN_STATE, extraHTTPHeaders: { origin: BASE_URL } })
  world = await registerApprovalWorld(admin, upstream.url, suffix)
  agent = await agentClient(BASE_URL, world.token)
  worker = await startApprovalsWorker()
})

test.afterAll(async () => {
  await agent?.close()
  await worker?.stop()
  await upstream?.close()
  await admin?.dispose()
})

const queueUrl = () => `/approvals?tool=${encodeURIComponent(world.toolId)}`
const rowOf = (page: Page, approval: Approval) => page.locator(`[data-testid="approval-row"][data-approval-id="${approval.id}"]`)
const button = (page: Page, name: string) => page.getByRole('button', { name, exact: true })
// Approving a financial call asks again (its level is high-risk): the dialog names the call.
const confirmation = (page: Page) => page.getByTestId('approval-confirm')
async function confirmApproval(page: Page, label = 'Yes, approve') {
  await expect(confirmation(page)).toBeVisible()
  await confirmation(page).getByRole('button', { name: label, exact: true }).click()
  await expect(confirmation(page)).toHaveCount(0)
}
// Denying a high-risk call asks too, for the reason (prefilled from the comment).
async function confirmDenial(page: Page, reason: string, label = 'Yes, deny') {
  await expect(confirmation(page)).toBeVisible()
  await expect(confirmation(page).getByRole('button', { name: label, exact: true })).toBeDisabled()
  await confirmation(page).getByTestId('deny-reason').fill(reason)
  await confirmation(page).getByRole('button', { name: label, exact: true }).click()
  await expect(confirmation(page)).toHaveCount(0)
}
const succeeded = (page: Page, text: string) => page.getByRole('status').filter({ hasText: text })
// The queue's refusals; Next.js's route announcer is an (empty) alert too.
const refused = (page: Page) => page.getByRole('alert').filter({ hasText: /^Already / })
const paid = (invoice: string) => upstream.paid.get(invoice) ?? 0
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** Pays an invoice as the agent; `waitSeconds` asks the gateway to hold the call until it is decided and run. */
function pay(invoice: string, amount: number, waitSeconds?: number): Promise<ToolAnswer> {
  const _meta = waitSeconds ? { 'toolroom/waitForApprovalSeconds': waitSeconds } : undefined
  return agent.callTool({ name: world.toolId, arguments: { invoice, amount }, ...(_meta ? { _meta } : {}) }, undefined, {
    timeout: 120_000,
  }) as Promise<ToolAnswer>
}

/** The pending request for an invoice, once the gateway has recorded it. */
async function approvalOf(invoice: string): Promise<Approval> {
  let found: Approval | undefined
  await expect
    .poll(
      async () => {
        const res = await admin.get(`/api/v1/approvals?status=pending&tool=${encodeURIComponent(world.toolId)}&limit=500`)
        expect(res.status()).toBe(200)
        found = ((await res.json()).items as Approval[]).find((a) => a.args?.invoice === invoice)
        return Boolean(found)
      },
      { message: `the pending request for ${invoice}` },
    )
    .toBe(true)
  return found!
}

async function approvalById(id: string): Promise<Approval> {
  const res = await admin.get(`/api/v1/approvals/${id}`)
  expect(res.status()).toBe(200)
  return res.json()
}

/** Waits for the worker to have run an approved call. */
async function executed(approval: Approval) {
  await expect
    .poll(async () => (await approvalById(approval.id)).execution?.status, { message: `execution of ${approval.args.invoice}`, timeout: 30_000 })
    .toBe('succeeded')
}

/** Waits until the worker has run everything queued, for checks that nothing ran twice (or at all). */
const settle = () => worker.drained()

async function openQueue(page: Page) {
  await page.goto(queueUrl())
  await expect(page.getByRole('heading', { level: 1, name: 'Approvals' })).toBeVisible()
  await expect(page.getByRole('listbox', { name: 'Approval requests' }).or(page.getByText('Nothing matches these filters'))).toBeVisible()
}

async function showDecided(page: Page, status: 'approved' | 'denied', approval: Approval): Promise<Locator> {
  await page.getByRole('tab', { name: new RegExp(`^${status}`, 'i') }).click()
  await expect(page).toHaveURL(new RegExp(`status=${status}`))
  const row = rowOf(page, approval)
  await row.click()
  const detail = page.getByTestId('approval-detail')
  await expect(detail).toHaveAttribute('data-approval-id', approval.id)
  return detail
}

test('a waiting call shows up in the queue without a reload, and runs once when an approver approves it', async ({ browser }) => {
  const approver = await openAs(browser, 'approver')
  const page = approver.page
  await openQueue(page)
  // Marks this document: a reload or navigation would lose the mark.
  await page.evaluate(() => ((window as unknown as { queueDocument: string }).queueDocument = 'first load'))

  const answer = pay('INV-1001', 1250, 90)
  const approval = await approvalOf('INV-1001')
  const row = rowOf(page, approval)
  await expect(row).toBeVisible()
  expect(await page.evaluate(() => (window as unknown as { queueDocument?: string }).queueDocument)).toBe('first load')
  await expect(row).toContainText(world.toolId)
  await expect(row).toContainText(world.agentName)

  await row.click()
  const detail = page.getByTestId('approval-detail')
  await expect(detail).toHaveAttribute('data-approval-id', approval.id)
  await expect(detail).toContainText('"invoice": "INV-1001"')
  await expect(detail).toContainText(`${world.namespace}/${world.agentName}`)
  await expect(detail).toContainText('the SideEffectPolicy of its level')
  await expect(detail.getByTestId('approval-rate-limits')).toHaveText('tool: 1,000 a minute, 100,000 a dayagent: no limit')
  // The row says which invoice and how much, without opening it.
  await expect(row.getByTestId('argument-summary')).toHaveText('invoiceINV-1001amount1250')
  await page.screenshot({ path: `${SCREENSHOTS}/approvals-pending.png`, fullPage: true })
  expect(paid('INV-1001')).toBe(0)

  await page.getByLabel('Comment').fill('Supplier confirmed the bank details by phone')
  await button(page, 'Approve').click()
  await expect(confirmation(page)).toContainText(`Approve ${world.toolId}?`)
  await expect(confirmation(page)).toContainText('INV-1001')
  await confirmApproval(page)
  await expect(succeeded(page, `Approved ${world.toolId} for ${world.agentName}`)).toBeVisible()
  await expect(row).toHaveCount(0)

  // The agent's call, held open all along, answers with the upstream's result.
  const result = await answer
  expect(result.isError).toBeFalsy()
  expect(result.structuredContent).toEqual({ paid: 'INV-1001', amount: 1250, payment: 1 })
  await executed(approval)
  await settle()
  expect(paid('INV-1001')).toBe(1)

  const decided = await showDecided(page, 'approved', approval)
  await expect(rowOf(page, approval)).toContainText(`by ${demoEmail('approver')}`)
  await expect(decided.getByTestId('approval-decision')).toContainText(new RegExp(`^approved by ${escape(demoEmail('approver'))} on \\S.*\\d`, 'i'))
  await expect(decided.getByTestId('approval-decision')).toContainText('Supplier confirmed the bank details by phone')
  await expect(decided.getByText('run: succeeded')).toBeVisible()
  await decided.getByTestId('approval-decision').scrollIntoViewIfNeeded()
  await page.screenshot({ path: `${SCREENSHOTS}/approvals-approved.png`, fullPage: true })
  expect(approver.cspViolations).toEqual([])
  await approver.close()
})

test('an agent that does not wait polls approval_status; the approver decides from the keyboard', async ({ browser }) => {
  const first = await pay('INV-1002', 80)
  expect(first.isError).toBe(true)
  expect(first.structuredContent).toMatchObject({
    status: 'approval_required',
    approvalStatus: 'pending',
    tool: world.toolId,
    level: 'financial',
    pollWith: 'toolroom.approval_status',
  })
  const callId = first.structuredContent!.callId as string
  const approval = await approvalOf('INV-1002')
  expect(approval.callId).toBe(callId)

  const approver = await openAs(browser, 'approver')
  const page = approver.page
  await openQueue(page)
  await expect(page.getByText('a approve · d deny · x select')).toBeVisible()
  // The oldest request has the focus; j/k move it, a approves the one in focus.
  await expect(rowOf(page, approval)).toHaveAttribute('aria-selected', 'true')
  await page.keyboard.press('j')
  await page.keyboard.press('k')
  await expect(page.getByTestId('approval-detail')).toHaveAttribute('data-approval-id', approval.id)
  // One key never approves a financial call: a asks, with Cancel in focus; Tab then Enter confirms.
  await page.keyboard.press('a')
  await expect(confirmation(page)).toBeVisible()
  await expect(confirmation(page).getByRole('button', { name: 'Cancel' })).toBeFocused()
  await page.keyboard.press('Tab')
  await expect(confirmation(page).getByRole('button', { name: 'Yes, approve' })).toBeFocused()
  await page.keyboard.press('Enter')
  await expect(succeeded(page, `Approved ${world.toolId}`)).toBeVisible()
  await expect(rowOf(page, approval)).toHaveCount(0)
  // A second a, out of habit, decides nothing: no request is in focus until one is chosen.
  await page.keyboard.press('a')
  await expect(page.getByText('Decided — choose the next request')).toBeVisible()
  await expect(confirmation(page)).toHaveCount(0)

  await expect
    .poll(
      async () => ((await agent.callTool({ name: 'toolroom.approval_status', arguments: { callId } })).structuredContent as { execution?: string })?.execution,
      { timeout: 30_000 },
    )
    .toBe('succeeded')
  const status = (await agent.callTool({ name: 'toolroom.approval_status', arguments: { callId } })).structuredContent
  expect(status).toMatchObject({ callId, status: 'approved', result: { structuredContent: { paid: 'INV-1002', amount: 80, payment: 1 } } })
  await settle()
  expect(paid('INV-1002')).toBe(1)
  expect(approver.cspViolations).toEqual([])
  await approver.close()
})

test('a denied call never runs; the agent is told why, and the queue shows who denied it, when and why', async ({ browser }) => {
  const approver = await openAs(browser, 'approver')
  const page = approver.page
  await openQueue(page)
  const answer = pay('INV-2001', 99_000, 90).then(
    (result) => ({ result, error: null }),
    (error: Error & { code?: number; data?: Record<string, unknown> }) => ({ result: null, error }),
  )
  const approval = await approvalOf('INV-2001')
  await rowOf(page, approval).click()
  await page.getByLabel('Comment').fill('Duplicate of INV-1001; the supplier was paid already')
  const before = Date.now()
  await button(page, 'Deny').click()
  await expect(confirmation(page)).toContainText(`Deny ${world.toolId}?`)
  await expect(confirmation(page).getByTestId('deny-reason')).toHaveValue('Duplicate of INV-1001; the supplier was paid already')
  await confirmation(page).getByRole('button', { name: 'Yes, deny', exact: true }).click()
  await expect(succeeded(page, `Denied ${world.toolId} for ${world.agentName}`)).toBeVisible()

  const { result, error } = await answer
  expect(result).toBeNull()
  expect(error!.message).toContain(`was denied by ${demoEmail('approver')}: Duplicate of INV-1001; the supplier was paid already; it did not run`)
  expect(error!.data).toMatchObject({ outcome: 'rejected', approvalStatus: 'denied' })

  const decided = await approvalById(approval.id)
  expect(decided).toMatchObject({
    status: 'denied',
    execution: null,
    decision: { by: demoEmail('approver'), comment: 'Duplicate of INV-1001; the supplier was paid already' },
  })
  expect(Math.abs(new Date(decided.decision!.at!).getTime() - before)).toBeLessThan(60_000)

  const detail = await showDecided(page, 'denied', approval)
  await expect(rowOf(page, approval)).toContainText(`by ${demoEmail('approver')}`)
  const decision = detail.getByTestId('approval-decision')
  await expect(decision).toContainText(new RegExp(`^denied by ${escape(demoEmail('approver'))} on \\S.*\\d`, 'i'))
  await expect(decision).toContainText('“Duplicate of INV-1001; the supplier was paid already”')
  await decision.scrollIntoViewIfNeeded()
  await page.screenshot({ path: `${SCREENSHOTS}/approvals-denied.png`, fullPage: true })

  await settle()
  expect(paid('INV-2001')).toBe(0)
  expect(approver.cspViolations).toEqual([])
  await approver.close()
})

test('an approver in another time zone than the server gets the server-rendered queue as it is, in local time once live', async ({ browser }) => {
  // The server renders the first page in its own zone (UTC here). Dates printed in the reader's zone
  // from the first render would differ from that HTML, and React would throw the page away to render
  // it again in the browser (a hydration error): slower, and noisy in the console.
  const timeZone = 'Pacific/Auckland'
  await pay('INV-2501', 7)
  const approval = await approvalOf('INV-2501')
  const approver = await openAs(browser, 'approver', { timezoneId: timeZone })
  const page = approver.page
  const errors: string[] = []
  page.on('pageerror', (e) => errors.push(e.message))
  await page.goto(queueUrl())
  const row = rowOf(page, approval)
  await expect(row).toBeVisible()
  await row.click()
  const asked = new Date(approval.requestedAt)
  const zone = new Intl.DateTimeFormat('en-GB', { timeZoneName: 'short', timeZone }).formatToParts(asked).find((p) => p.type === 'timeZoneName')!.value
  const local = `${new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone }).format(asked)} ${zone}`
  await expect(page.getByTestId('approval-detail')).toContainText(`Asked${local} (`)
  expect(errors).toEqual([])

  const res = await admin.post(`/api/v1/approvals/${approval.id}/deny`, { data: { comment: 'time-zone check only' } })
  expect(res.status()).toBe(200)
  await approver.close()
})

test('j pressed while the server-rendered queue is on screen but not live yet moves the focus once the page listens; a or d then decides nothing', async ({
  browser,
}) => {
  await pay('INV-2601', 11)
  await pay('INV-2602', 12)
  const approvals = [await approvalOf('INV-2601'), await approvalOf('INV-2602')]
  const approver = await openAs(browser, 'approver')
  const page = approver.page
  // The server's rows are on screen while React is not there yet: the moment an approver who opened
  // the queue presses j first.
  const release = await holdScripts(page)
  await page.goto(queueUrl(), { waitUntil: 'commit' })
  const rows = page.getByTestId('approval-row')
  await expect(rows.nth(1)).toBeVisible()
  await expect(rows.first()).toHaveAttribute('aria-selected', 'true')
  const second = await rows.nth(1).getAttribute('data-approval-id')
  await page.keyboard.press('j')
  await page.keyboard.press('a')
  await expect(rows.first()).toHaveAttribute('aria-selected', 'true')
  release()
  await expect(rows.nth(1)).toHaveAttribute('aria-selected', 'true')
  await expect(page.getByTestId('approval-detail')).toHaveAttribute('data-approval-id', second!)
  await expect(confirmation(page)).toHaveCount(0)
  for (const a of approvals) {
    expect((await approvalById(a.id)).status).toBe('pending')
    expect((await admin.post(`/api/v1/approvals/${a.id}/deny`, { data: { comment: 'early-keys check only' } })).status()).toBe(200)
  }
  await approver.close()
})

test('two approvers approve the same call at once: one wins, the other is told who decided, and it runs once', async ({ browser }) => {
  const first = await pay('INV-3001', 420)
  const callId = first.structuredContent!.callId as string
  const approval = await approvalOf('INV-3001')
  const people = { approver: await openAs(browser, 'approver'), admin: await openAs(browser, 'admin') }
  for (const { page } of Object.values(people)) {
    await openQueue(page)
    await rowOf(page, approval).click()
    await expect(page.getByTestId('approval-detail')).toHaveAttribute('data-approval-id', approval.id)
  }
  await Promise.all(Object.values(people).map(({ page }) => button(page, 'Approve').click()))
  for (const { page } of Object.values(people)) await expect(confirmation(page)).toBeVisible()
  await Promise.all(Object.values(people).map(({ page }) => confirmation(page).getByRole('button', { name: 'Yes, approve' }).click()))

  const outcomes: Record<string, 'won' | 'lost'> = {}
  for (const [role, { page }] of Object.entries(people)) {
    const won = succeeded(page, `Approved ${world.toolId}`)
    const lost = refused(page)
    await expect(won.or(lost)).toBeVisible()
    outcomes[role] = (await won.isVisible()) ? 'won' : 'lost'
  }
  expect(Object.values(outcomes).sort()).toEqual(['lost', 'won'])
  const winner = Object.keys(outcomes).find((r) => outcomes[r] === 'won') as 'approver' | 'admin'
  const loser = winner === 'approver' ? 'admin' : 'approver'
  const decided = await approvalById(approval.id)
  expect(decided.decision!.by).toBe(demoEmail(winner))
  const message = refused(people[loser].page)
  await expect(message).toContainText(`was approved by ${demoEmail(winner)} at `)
  await people[loser].page.screenshot({ path: `${SCREENSHOTS}/approvals-race-loser.png`, fullPage: true })

  await executed(approval)
  await settle()
  expect(paid('INV-3001')).toBe(1)
  const status = (await agent.callTool({ name: 'toolroom.approval_status', arguments: { callId } })).structuredContent
  expect(status).toMatchObject({ status: 'approved', execution: 'succeeded', result: { structuredContent: { paid: 'INV-3001', payment: 1 } } })
  for (const person of Object.values(people)) {
    expect(person.cspViolations).toEqual([])
    await person.close()
  }
})

test('several waiting calls are approved in bulk with the mouse, and denied in bulk from the keyboard', async ({ browser }) => {
  const invoices = ['INV-4001', 'INV-4002', 'INV-4003', 'INV-4004', 'INV-4005']
  const approvals: Approval[] = []
  for (const [i, invoice] of invoices.entries()) {
    await pay(invoice, 100 + i)
    approvals.push(await approvalOf(invoice))
  }
  const [toApprove, toDeny] = [approvals.slice(0, 3), approvals.slice(3)]
  const approver = await openAs(browser, 'approver')
  const page = approver.page
  await openQueue(page)
  for (const a of approvals) await expect(rowOf(page, a)).toBeVisible()

  for (const a of toApprove) await rowOf(page, a).getByTestId('approval-select').click()
  await expect(page.getByText('3 selected')).toBeVisible()
  // The panel lists what the decision covers, with the total it pays out.
  const panel = page.getByTestId('bulk-panel')
  await expect(panel.getByTestId('bulk-item')).toHaveCount(3)
  for (const a of toApprove) await expect(panel.locator(`[data-approval-id="${a.id}"]`)).toContainText(a.args.invoice!)
  await expect(panel.getByTestId('bulk-totals')).toContainText('High risk3')
  await expect(panel.locator('[data-testid="bulk-sum"][data-field="amount"]')).toContainText('303 over 3')
  await page.screenshot({ path: `${SCREENSHOTS}/approvals-bulk.png`, fullPage: true })
  await page.getByLabel('Comment').fill('Month-end supplier run')
  await button(page, 'Approve 3').click()
  await confirmApproval(page, 'Yes, approve 3')
  await expect(succeeded(page, 'Approved 3 of 3.')).toBeVisible()
  for (const a of toApprove) await expect(rowOf(page, a)).toHaveCount(0)

  // x selects the request in focus, j moves on, d denies the selection.
  await rowOf(page, toDeny[0]).click()
  await page.keyboard.press('x')
  await page.keyboard.press('j')
  await page.keyboard.press('x')
  await expect(page.getByText('2 selected')).toBeVisible()
  await expect(button(page, 'Deny 2')).toBeVisible()
  await page.keyboard.press('d')
  await confirmDenial(page, 'Not this month', 'Yes, deny 2')
  await expect(succeeded(page, 'Denied 2 of 2.')).toBeVisible()
  for (const a of toDeny) await expect(rowOf(page, a)).toHaveCount(0)

  for (const a of toApprove) {
    await executed(a)
    expect(await approvalById(a.id)).toMatchObject({ status: 'approved', decision: { by: demoEmail('approver'), comment: 'Month-end supplier run' } })
  }
  for (const a of toDeny) expect(await approvalById(a.id)).toMatchObject({ status: 'denied', execution: null, decision: { by: demoEmail('approver') } })
  await settle()
  expect(invoices.map(paid)).toEqual([1, 1, 1, 0, 0])
  expect(approver.cspViolations).toEqual([])
  await approver.close()
})

test('a cancelled high-risk approval stays pending; the keys work from the list, a marked row and the buttons, not in a text field', async ({ browser }) => {
  await pay('INV-6001', 321)
  await pay('INV-6002', 654)
  const [first, second] = [await approvalOf('INV-6001'), await approvalOf('INV-6002')]
  const approver = await openAs(browser, 'approver')
  const page = approver.page
  await openQueue(page)
  const list = page.getByRole('listbox', { name: 'Approval requests' })
  await expect(rowOf(page, first).getByTestId('argument-summary')).toHaveText('invoiceINV-6001amount321')
  await expect(rowOf(page, first)).toContainText('high risk')

  // A click hands the keyboard to the list (one Tab stop, the row in focus is its active option).
  await rowOf(page, first).click()
  await expect(list).toBeFocused()
  await expect(list).toHaveAttribute('aria-activedescendant', `approval-${first.id}`)
  await page.keyboard.press('j')
  await expect(rowOf(page, second)).toHaveAttribute('aria-selected', 'true')
  await page.keyboard.press(' ')
  await expect(rowOf(page, second)).toHaveAttribute('aria-checked', 'true')
  // Marking a row with the mouse leaves the keys working.
  await rowOf(page, first).getByTestId('approval-select').click()
  await expect(rowOf(page, first)).toHaveAttribute('aria-checked', 'true')
  await expect(page.getByText('2 selected')).toBeVisible()
  await page.keyboard.press('k')
  await expect(rowOf(page, first)).toHaveAttribute('aria-selected', 'true')
  // From a button too.
  await button(page, 'Deny 2').focus()
  await page.keyboard.press('j')
  await expect(rowOf(page, second)).toHaveAttribute('aria-selected', 'true')
  // In the comment box, keys are text.
  await page.getByLabel('Comment').click()
  await page.keyboard.type('jk a')
  await expect(page.getByLabel('Comment')).toHaveValue('jk a')
  await expect(rowOf(page, second)).toHaveAttribute('aria-selected', 'true')
  await expect(confirmation(page)).toHaveCount(0)
  await page.getByLabel('Comment').fill('')
  await page.getByRole('button', { name: 'Clear selection' }).click()

  // a asks; Escape, or Enter on the Cancel it starts on, leaves the request waiting.
  await rowOf(page, first).click()
  await page.keyboard.press('a')
  await expect(confirmation(page)).toContainText('INV-6001')
  await expect(confirmation(page)).toContainText('cannot be called back')
  await page.screenshot({ path: `${SCREENSHOTS}/approvals-confirm.png` })
  await page.keyboard.press('Escape')
  await expect(confirmation(page)).toHaveCount(0)
  await page.keyboard.press('a')
  await expect(confirmation(page)).toBeVisible()
  await page.keyboard.press('Enter')
  await expect(confirmation(page)).toHaveCount(0)
  await settle()
  expect(await approvalById(first.id)).toMatchObject({ status: 'pending', decision: null })
  expect(paid('INV-6001')).toBe(0)

  // Denying them asks for the reason; both go at once.
  await list.focus()
  await page.keyboard.press('x')
  await page.keyboard.press('j')
  await page.keyboard.press('x')
  await page.keyboard.press('d')
  await confirmDenial(page, 'Test payments', 'Yes, deny 2')
  await expect(succeeded(page, 'Denied 2 of 2.')).toBeVisible()
  expect(approver.cspViolations).toEqual([])
  await approver.close()
})

test('a queue that cannot refresh says it is stale and since when, and clears once the server answers again', async ({ browser }) => {
  await pay('INV-6101', 11)
  const approval = await approvalOf('INV-6101')
  const approver = await openAs(browser, 'approver')
  const page = approver.page
  await openQueue(page)
  await expect(rowOf(page, approval)).toBeVisible()
  await expect(page.getByTestId('queue-stale')).toHaveCount(0)
  // The approver's browser loses the network: the next polls fail.
  await approver.context.setOffline(true)
  const banner = page.getByTestId('queue-stale')
  await expect(banner).toBeVisible({ timeout: 30_000 })
  await expect(banner).toContainText('Stale: the queue could not be refreshed')
  await expect(banner).toContainText(/Last updated \d{1,2} \w{3} \d{4}, \d{2}:\d{2} \S+ \(/)
  // The rows it had stay, marked as possibly out of date rather than removed.
  await expect(rowOf(page, approval)).toBeVisible()
  await page.screenshot({ path: `${SCREENSHOTS}/approvals-stale.png`, fullPage: true })
  await approver.context.setOffline(false)
  await expect(banner).toHaveCount(0, { timeout: 30_000 })
  await approver.close()
  expect((await admin.post(`/api/v1/approvals/${approval.id}/deny`, { data: { comment: 'stale banner check only' } })).status()).toBe(200)
})

test('the navigation counts the requests waiting, on every page', async ({ browser }) => {
  await pay('INV-6151', 3)
  const approval = await approvalOf('INV-6151')
  const total = (await (await admin.get('/api/v1/approvals?status=pending&limit=1')).json()).total as number
  expect(total).toBeGreaterThan(0)
  const viewer = await openAs(browser, 'viewer')
  for (const path of ['/', '/tools']) {
    await viewer.page.goto(path)
    await expect(viewer.page.getByRole('navigation', { name: 'Main' }).getByTestId('nav-pending-approvals')).toHaveText(`${total} waiting`)
  }
  await viewer.close()
  expect((await admin.post(`/api/v1/approvals/${approval.id}/deny`, { data: { comment: 'count check only' } })).status()).toBe(200)
})

test('on a phone, the arguments and Approve/Deny of the request in focus stay on screen', async ({ browser }) => {
  await pay('INV-6201', 777)
  const approval = await approvalOf('INV-6201')
  const approver = await openAs(browser, 'approver', { viewport: { width: 390, height: 844 } })
  const page = approver.page
  await openQueue(page)
  await rowOf(page, approval).click()
  const bar = page.getByTestId('approval-action-bar')
  await expect(bar).toBeVisible()
  await expect(bar).toContainText(world.toolId)
  await expect(bar.getByTestId('argument-summary')).toHaveText('invoiceINV-6201amount777')
  // Within the screen wherever the page is scrolled, and nothing sticks out sideways.
  await page.mouse.wheel(0, 2000)
  const box = (await bar.getByRole('button', { name: 'Deny', exact: true }).boundingBox())!
  expect(box.y + box.height).toBeLessThanOrEqual(844)
  expect(box.x + box.width).toBeLessThanOrEqual(390)
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
  await page.screenshot({ path: `${SCREENSHOTS}/approvals-phone.png` })
  await bar.getByRole('button', { name: 'Approve', exact: true }).click()
  await confirmApproval(page)
  await expect(succeeded(page, `Approved ${world.toolId}`)).toBeVisible()
  // Nothing to decide takes the place of the buttons (the bar leaves when the queue is empty).
  await expect(bar.getByRole('button')).toHaveCount(0)
  await executed(approval)
  expect(paid('INV-6201')).toBe(1)
  await approver.close()
})

test('on a touch phone, a double tap decides nothing twice, a high-risk decision is held, a deny says why, and a decision can be undone', async ({
  browser,
}) => {
  await pay('INV-6301', 5100)
  await pay('INV-6302', 9900)
  const [first, second] = [await approvalOf('INV-6301'), await approvalOf('INV-6302')]
  const approver = await openAs(browser, 'approver', { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true })
  const page = approver.page
  await openQueue(page)
  // Requests first: the filters wait behind a button.
  await expect(page.getByLabel('Side-effect level')).toBeHidden()
  await page.getByTestId('approval-filters-toggle').tap()
  await expect(page.getByLabel('Side-effect level')).toBeVisible()
  await page.getByTestId('approval-filters-toggle').tap()
  await page.screenshot({ path: `${SCREENSHOTS}/approvals-phone-queue.png` })

  await rowOf(page, first).tap()
  const bar = page.getByTestId('approval-action-bar')
  await expect(bar.getByTestId('argument-summary')).toHaveText('invoiceINV-6301amount5100')
  const deny = (await bar.getByRole('button', { name: 'Deny', exact: true }).boundingBox())!
  // Every button a thumb uses is at least 44 px high.
  expect(deny.height).toBeGreaterThanOrEqual(44)
  const at = { x: deny.x + deny.width / 2, y: deny.y + deny.height / 2 }
  // A double tap on Deny: the first asks why; the second decides nothing.
  await page.touchscreen.tap(at.x, at.y)
  await page.touchscreen.tap(at.x, at.y)
  await expect(confirmation(page)).toContainText(`Deny ${world.toolId}?`)
  await expect(confirmation(page)).toContainText('INV-6301')
  await confirmation(page).getByTestId('deny-reason').fill('Wrong supplier')
  // A tap on the confirming button is not enough on a touch screen: it is held.
  const yes = confirmation(page).getByTestId('confirm-hold')
  const yesBox = (await yes.boundingBox())!
  expect(yesBox.height).toBeGreaterThanOrEqual(44)
  await yes.tap()
  await expect(confirmation(page)).toBeVisible()
  expect((await approvalById(first.id)).status).toBe('pending')
  await page.screenshot({ path: `${SCREENSHOTS}/approvals-phone-deny.png` })
  const cdp = await page.context().newCDPSession(page)
  const touch = { x: yesBox.x + yesBox.width / 2, y: yesBox.y + yesBox.height / 2 }
  // Held until it says so, then let go: the lift decides, and taps nothing under the finger.
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [touch] })
  await expect(yes).toHaveText('Release to confirm')
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] })
  await expect(succeeded(page, `Denied ${world.toolId} for ${world.agentName}`)).toBeVisible()
  expect(await approvalById(first.id)).toMatchObject({ status: 'denied', decision: { comment: 'Wrong supplier' } })

  // Where Deny was, nothing can be tapped until the next request is chosen.
  await expect(bar).toContainText('Decided — choose the next request')
  await expect(bar.getByRole('button')).toHaveCount(0)
  await page.touchscreen.tap(at.x, at.y)
  await expect(confirmation(page)).toHaveCount(0)
  expect((await approvalById(second.id)).status).toBe('pending')
  await page.screenshot({ path: `${SCREENSHOTS}/approvals-phone-decided.png` })

  // Undo, within the few seconds before the decision takes effect: the request is waiting again.
  await page.getByTestId('approval-undo').tap()
  await expect(succeeded(page, `Undone: ${world.toolId} for ${world.agentName} is waiting again.`)).toBeVisible()
  expect(await approvalById(first.id)).toMatchObject({ status: 'pending', decision: null })
  await expect(rowOf(page, first)).toBeVisible()

  // The second request, approved by holding.
  await rowOf(page, second).tap()
  await expect(bar.getByTestId('argument-summary')).toHaveText('invoiceINV-6302amount9900')
  await bar.getByRole('button', { name: 'Approve', exact: true }).tap()
  const hold = (await confirmation(page).getByTestId('confirm-hold').boundingBox())!
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x: hold.x + hold.width / 2, y: hold.y + hold.height / 2 }] })
  await expect(confirmation(page).getByTestId('confirm-hold')).toHaveText('Release to confirm')
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] })
  await expect(succeeded(page, `Approved ${world.toolId}`)).toBeVisible()
  await executed(second)
  await settle()
  expect([paid('INV-6301'), paid('INV-6302')]).toEqual([0, 1])
  expect((await admin.post(`/api/v1/approvals/${first.id}/deny`, { data: { comment: 'phone check only' } })).status()).toBe(200)
  await approver.close()
})

test('on the desktop, an approval undone in time never runs, and approved again runs once', async ({ browser }) => {
  await pay('INV-6401', 640)
  const approval = await approvalOf('INV-6401')
  const approver = await openAs(browser, 'approver', { viewport: { width: 1440, height: 900 } })
  const page = approver.page
  await openQueue(page)
  await rowOf(page, approval).click()
  await button(page, 'Approve').click()
  await confirmApproval(page)
  await expect(succeeded(page, `Approved ${world.toolId}`)).toContainText(/takes effect in \d+ s unless you undo it/)
  await page.screenshot({ path: `${SCREENSHOTS}/approvals-undo.png` })
  await page.getByTestId('approval-undo').click()
  await expect(succeeded(page, 'is waiting again')).toBeVisible()
  expect(await approvalById(approval.id)).toMatchObject({ status: 'pending', execution: null })
  await rowOf(page, approval).click()
  await button(page, 'Approve').click()
  await confirmApproval(page)
  await expect(succeeded(page, `Approved ${world.toolId}`)).toBeVisible()
  await executed(approval)
  await settle()
  expect(paid('INV-6401')).toBe(1)
  await approver.close()
})

test('viewers and operators see the queue but are offered no decision, and the API refuses theirs', async ({ browser }) => {
  await pay('INV-5001', 5)
  const approval = await approvalOf('INV-5001')
  for (const role of ['viewer', 'operator'] as const) {
    const person = await openAs(browser, role)
    const page = person.page
    await openQueue(page)
    await rowOf(page, approval).click()
    await expect(page.getByTestId('approval-detail')).toHaveAttribute('data-approval-id', approval.id)
    await expect(page.getByText('Deciding needs the approver role.')).toBeVisible()
    await expect(button(page, 'Approve')).toHaveCount(0)
    await expect(button(page, 'Deny')).toHaveCount(0)
    await expect(page.getByTestId('approval-select')).toHaveCount(0)
    await expect(page.getByLabel('Comment')).toHaveCount(0)
    await expect(page.getByText('a approve · d deny')).toHaveCount(0)
    // The shortcuts decide nothing either.
    await page.keyboard.press('a')
    await page.keyboard.press('d')
    if (role === 'viewer') await page.screenshot({ path: `${SCREENSHOTS}/approvals-viewer.png`, fullPage: true })

    // Their session, from the portal's own origin: refused by role, not by the CSRF check.
    const headers = { origin: BASE_URL }
    const approve = await page.request.post(`/api/v1/approvals/${approval.id}/approve`, { headers, data: { comment: 'let me' } })
    expect(approve.status()).toBe(403)
    expect(approve.headers()['content-type']).toContain('application/problem+json')
    expect((await page.request.post(`/api/v1/approvals/${approval.id}/deny`, { headers, data: {} })).status()).toBe(403)
    expect((await page.request.post('/api/v1/approvals/decide', { headers, data: { ids: [approval.id], decision: 'approve' } })).status()).toBe(403)
    expect(person.cspViolations).toEqual([])
    await person.close()
  }
  expect(await approvalById(approval.id)).toMatchObject({ status: 'pending', decision: null })
  await settle()
  expect(paid('INV-5001')).toBe(0)
})

test('the queue and the detail say what the call will do and why a Policy holds it, on the desktop and on a phone', async ({ browser }) => {
  // The Tool says how its calls read (docs/design/approvals.md#summaries); a Policy holds large payments.
  const manifest = `apiVersion: toolroom.dev/v1alpha1
kind: Tool
metadata: { name: ${world.toolId}, namespace: ${world.namespace} }
spec:
  type: mcp
  description: Pays a supplier invoice.
  mcpServerRef: { name: payments, tool: pay_invoice }
  inputSchema:
    type: object
    required: [invoice, amount]
    properties: { invoice: { type: string, title: Invoice }, amount: { type: number, title: Amount } }
  sideEffects: { level: financial, idempotent: false }
  safety: { rateLimit: { callsPerMinute: 1000, callsPerDay: 100000 } }
  approval:
    summary: "Pay {{ amount }} on invoice {{ invoice }}"
    fields:
      amount: { unit: minor_currency, currency: EUR }
      invoice: { link: "https://erp.example.com/invoices/{{ invoice }}" }
---
apiVersion: toolroom.dev/v1alpha1
kind: Policy
metadata: { name: large-payments, namespace: ${world.namespace} }
spec:
  selector: { tools: ["${world.toolId}"] }
  rules:
    - when: "args.amount > 1000000"
      effect: require_approval
      reason: Payments above €10,000.00 need a second person
`
  const applied = await admin.post('/api/v1/apply', { headers: { 'content-type': 'application/yaml' }, data: manifest })
  expect(applied.status(), await applied.text()).toBe(200)
  await pay('INV-7001', 1250000)
  const approval = await approvalOf('INV-7001')
  const line = 'Pay €12,500.00 on invoice INV-7001'
  const reason = 'Payments above €10,000.00 need a second person'

  const desk = await openAs(browser, 'approver', { viewport: { width: 1440, height: 900 } })
  await openQueue(desk.page)
  const row = rowOf(desk.page, approval)
  await expect(row.getByTestId('approval-summary-line')).toHaveText(line)
  await expect(row.getByTestId('approval-policy-reasons')).toContainText(reason)
  await expect(row.getByTestId('argument-summary')).toHaveText('InvoiceINV-7001Amount€12,500.00')
  await row.click()
  const detail = desk.page.getByTestId('approval-detail')
  await expect(detail).toHaveAttribute('data-approval-id', approval.id)
  await expect(detail.getByTestId('approval-detail-line')).toHaveText(line)
  await expect(detail.getByTestId('approval-tool-description')).toHaveText('Pays a supplier invoice.')
  await expect(detail.getByTestId('approval-policy-reasons')).toContainText(`${reason} (${world.namespace}/large-payments)`)
  await expect(detail.getByRole('link', { name: 'INV-7001' })).toHaveAttribute('href', 'https://erp.example.com/invoices/INV-7001')
  await desk.page.screenshot({ path: `${SCREENSHOTS}/approvals-summary-desktop.png` })
  expect(desk.cspViolations).toEqual([])
  await desk.close()

  const phone = await openAs(browser, 'approver', { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true })
  await openQueue(phone.page)
  const phoneRow = rowOf(phone.page, approval)
  await expect(phoneRow.getByTestId('approval-summary-line')).toHaveText(line)
  await expect(phoneRow.getByTestId('approval-policy-reasons')).toBeInViewport()
  await phoneRow.tap()
  const bar = phone.page.getByTestId('approval-action-bar')
  await expect(bar.getByTestId('approval-summary-line')).toHaveText(line)
  expect(await phone.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
  await phone.page.screenshot({ path: `${SCREENSHOTS}/approvals-summary-phone.png` })
  await phone.close()

  const denied = await admin.post(`/api/v1/approvals/${approval.id}/deny`, { data: { comment: 'only looked at' } })
  expect(denied.status()).toBe(200)
})

test('a queue of 25 waiting requests: j past the first page brings the next, and its rows answer the mouse and the keyboard', async ({ browser }) => {
  // With INV-5001 still waiting from the test before, these 24 are rows 2–25: the first page holds 20
  // (APPROVAL_PAGE_SIZE), rows 21–25 are the next page's.
  const approvals: Approval[] = []
  for (let i = 1; i <= 24; i++) {
    const invoice = `INV-70${String(i).padStart(2, '0')}`
    await pay(invoice, 10 + i)
    approvals.push(await approvalOf(invoice))
  }
  const approver = await openAs(browser, 'approver')
  const page = approver.page
  await openQueue(page)
  for (const a of approvals.slice(0, 19)) await expect(rowOf(page, a)).toHaveCount(1)
  await expect(rowOf(page, approvals[19])).toHaveCount(0)
  await expect(page.getByText('20 shown, more available')).toBeVisible()

  // j on row 20 fetches the next page and moves onto row 21; k and j then move across the pages'
  // seam, and a click on a later row focuses it and shows it.
  await rowOf(page, approvals[18]).click()
  await expect(rowOf(page, approvals[18])).toHaveAttribute('aria-selected', 'true')
  await page.keyboard.press('j')
  await expect(rowOf(page, approvals[19])).toHaveAttribute('aria-selected', 'true')
  await expect(rowOf(page, approvals[19])).toBeInViewport()
  const detail = page.getByTestId('approval-detail')
  await expect(detail).toHaveAttribute('data-approval-id', approvals[19].id)
  for (const a of approvals) await expect(rowOf(page, a)).toHaveCount(1)
  await expect(page.getByText('25 shown', { exact: true })).toBeVisible()
  await page.screenshot({ path: `${SCREENSHOTS}/approvals-next-page.png` })
  await page.keyboard.press('k')
  await expect(rowOf(page, approvals[18])).toHaveAttribute('aria-selected', 'true')
  await page.keyboard.press('j')
  await expect(rowOf(page, approvals[19])).toHaveAttribute('aria-selected', 'true')
  await rowOf(page, approvals[22]).click()
  await expect(detail).toHaveAttribute('data-approval-id', approvals[22].id)
  await expect(detail).toContainText('"invoice": "INV-7023"')
  for (let i = 0; i < 4; i++) await page.keyboard.press('k')
  await expect(rowOf(page, approvals[18])).toHaveAttribute('aria-selected', 'true')
  // x marks a later row for a bulk decision as any other.
  await rowOf(page, approvals[23]).getByTestId('approval-select').click()
  await expect(page.getByText('1 selected')).toBeVisible()
  expect(approver.cspViolations).toEqual([])
  await approver.close()

  for (const a of approvals)
    expect((await admin.post(`/api/v1/approvals/${a.id}/deny`, { data: { comment: 'end of the long-queue test' } })).status()).toBe(200)
})

test('the upstream ran exactly the approved calls, each once', async () => {
  // Closes the request the previous test left waiting, so the run leaves an empty queue behind.
  const res = await admin.post(`/api/v1/approvals/${(await approvalOf('INV-5001')).id}/deny`, { data: { comment: 'end of the e2e run' } })
  expect(res.status()).toBe(200)
  await settle()
  expect(Object.fromEntries([...upstream.paid].sort())).toEqual({
    'INV-1001': 1,
    'INV-1002': 1,
    'INV-3001': 1,
    'INV-4001': 1,
    'INV-4002': 1,
    'INV-4003': 1,
    'INV-6201': 1,
    'INV-6302': 1,
    'INV-6401': 1,
  })
})
