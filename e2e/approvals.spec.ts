import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { type APIRequestContext, expect, type Locator, type Page, request as playwrightRequest, test } from '@playwright/test'
import { ADMIN_STATE } from './global-setup'
import { agentClient, type ApprovalWorld, type PaymentsUpstream, registerApprovalWorld, startApprovalsWorker, startPaymentsUpstream, type Worker } from './support/approvals'
import { demoEmail, signInAs } from './support/sign-in'

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
  decision: { by: string | null; at: string | null; comment: string | null } | null
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
const succeeded = (page: Page, text: string) => page.getByRole('status').filter({ hasText: text })
// The queue's refusals; Next.js's route announcer is an (empty) alert too.
const refused = (page: Page) => page.getByRole('alert').filter({ hasText: /^Already / })
const paid = (invoice: string) => upstream.paid.get(invoice) ?? 0
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** Pays an invoice as the agent; `waitSeconds` asks the gateway to hold the call until it is decided and run. */
function pay(invoice: string, amount: number, waitSeconds?: number): Promise<ToolAnswer> {
  const _meta = waitSeconds ? { 'toolroom/waitForApprovalSeconds': waitSeconds } : undefined
  return agent.callTool({ name: world.toolId, arguments: { invoice, amount }, ...(_meta ? { _meta } : {}) }, undefined, { timeout: 120_000 }) as Promise<ToolAnswer>
}

/** The pending request for an invoice, once the gateway has recorded it. */
async function approvalOf(invoice: string): Promise<Approval> {
  let found: Approval | undefined
  await expect
    .poll(async () => {
      const res = await admin.get(`/api/v1/approvals?status=pending&tool=${encodeURIComponent(world.toolId)}&limit=500`)
      expect(res.status()).toBe(200)
      found = ((await res.json()).items as Approval[]).find((a) => a.args?.invoice === invoice)
      return Boolean(found)
    }, { message: `the pending request for ${invoice}` })
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
  await expect.poll(async () => (await approvalById(approval.id)).execution?.status, { message: `execution of ${approval.args.invoice}`, timeout: 30_000 }).toBe('succeeded')
}

/** Gives a wrongly queued execution time to happen (the worker polls every 0.5 s), for checks that nothing ran. */
const settle = () => new Promise((r) => setTimeout(r, 2000))

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
  const approver = await signInAs(browser, 'approver')
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
  await page.screenshot({ path: `${SCREENSHOTS}/approvals-pending.png`, fullPage: true })
  expect(paid('INV-1001')).toBe(0)

  await page.getByLabel('Comment').fill('Supplier confirmed the bank details by phone')
  await button(page, 'Approve').click()
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
  expect(first.structuredContent).toMatchObject({ status: 'approval_required', approvalStatus: 'pending', tool: world.toolId, level: 'financial', pollWith: 'toolroom.approval_status' })
  const callId = first.structuredContent!.callId as string
  const approval = await approvalOf('INV-1002')
  expect(approval.callId).toBe(callId)

  const approver = await signInAs(browser, 'approver')
  const page = approver.page
  await openQueue(page)
  await expect(page.getByText('a approve · d deny · x select')).toBeVisible()
  // The oldest request has the focus; j/k move it, a approves the one in focus.
  await expect(rowOf(page, approval)).toHaveAttribute('aria-selected', 'true')
  await page.keyboard.press('j')
  await page.keyboard.press('k')
  await expect(page.getByTestId('approval-detail')).toHaveAttribute('data-approval-id', approval.id)
  await page.keyboard.press('a')
  await expect(succeeded(page, `Approved ${world.toolId}`)).toBeVisible()
  await expect(rowOf(page, approval)).toHaveCount(0)

  await expect
    .poll(async () => ((await agent.callTool({ name: 'toolroom.approval_status', arguments: { callId } })).structuredContent as { execution?: string })?.execution, { timeout: 30_000 })
    .toBe('succeeded')
  const status = (await agent.callTool({ name: 'toolroom.approval_status', arguments: { callId } })).structuredContent
  expect(status).toMatchObject({ callId, status: 'approved', result: { structuredContent: { paid: 'INV-1002', amount: 80, payment: 1 } } })
  await settle()
  expect(paid('INV-1002')).toBe(1)
  expect(approver.cspViolations).toEqual([])
  await approver.close()
})

test('a denied call never runs; the agent is told why, and the queue shows who denied it, when and why', async ({ browser }) => {
  const approver = await signInAs(browser, 'approver')
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
  await expect(succeeded(page, `Denied ${world.toolId} for ${world.agentName}`)).toBeVisible()

  const { result, error } = await answer
  expect(result).toBeNull()
  expect(error!.message).toContain(`was denied by ${demoEmail('approver')}: Duplicate of INV-1001; the supplier was paid already; it did not run`)
  expect(error!.data).toMatchObject({ outcome: 'rejected', approvalStatus: 'denied' })

  const decided = await approvalById(approval.id)
  expect(decided).toMatchObject({ status: 'denied', execution: null, decision: { by: demoEmail('approver'), comment: 'Duplicate of INV-1001; the supplier was paid already' } })
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
  const approver = await signInAs(browser, 'approver', { timezoneId: timeZone })
  const page = approver.page
  const errors: string[] = []
  page.on('pageerror', (e) => errors.push(e.message))
  await page.goto(queueUrl())
  const row = rowOf(page, approval)
  await expect(row).toBeVisible()
  await row.click()
  const local = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone }).format(new Date(approval.requestedAt))
  await expect(page.getByTestId('approval-detail')).toContainText(`Asked${local} (`)
  expect(errors).toEqual([])

  const res = await admin.post(`/api/v1/approvals/${approval.id}/deny`, { data: { comment: 'time-zone check only' } })
  expect(res.status()).toBe(200)
  await approver.close()
})

test('two approvers approve the same call at once: one wins, the other is told who decided, and it runs once', async ({ browser }) => {
  const first = await pay('INV-3001', 420)
  const callId = first.structuredContent!.callId as string
  const approval = await approvalOf('INV-3001')
  const people = { approver: await signInAs(browser, 'approver'), admin: await signInAs(browser, 'admin') }
  for (const { page } of Object.values(people)) {
    await openQueue(page)
    await rowOf(page, approval).click()
    await expect(page.getByTestId('approval-detail')).toHaveAttribute('data-approval-id', approval.id)
  }
  await Promise.all(Object.values(people).map(({ page }) => button(page, 'Approve').click()))

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
  const approver = await signInAs(browser, 'approver')
  const page = approver.page
  await openQueue(page)
  for (const a of approvals) await expect(rowOf(page, a)).toBeVisible()

  for (const a of toApprove) await rowOf(page, a).getByRole('checkbox').check()
  await expect(page.getByText('3 selected')).toBeVisible()
  await page.getByLabel('Comment').fill('Month-end supplier run')
  await button(page, 'Approve 3').click()
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

test('viewers and operators see the queue but are offered no decision, and the API refuses theirs', async ({ browser }) => {
  await pay('INV-5001', 5)
  const approval = await approvalOf('INV-5001')
  for (const role of ['viewer', 'operator'] as const) {
    const person = await signInAs(browser, role)
    const page = person.page
    await openQueue(page)
    await rowOf(page, approval).click()
    await expect(page.getByTestId('approval-detail')).toHaveAttribute('data-approval-id', approval.id)
    await expect(page.getByText('Deciding needs the approver role.')).toBeVisible()
    await expect(button(page, 'Approve')).toHaveCount(0)
    await expect(button(page, 'Deny')).toHaveCount(0)
    await expect(page.getByRole('checkbox')).toHaveCount(0)
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

test('the upstream ran exactly the approved calls, each once', async () => {
  // Closes the request the previous test left waiting, so the run leaves an empty queue behind.
  const res = await admin.post(`/api/v1/approvals/${(await approvalOf('INV-5001')).id}/deny`, { data: { comment: 'end of the e2e run' } })
  expect(res.status()).toBe(200)
  await settle()
  expect(Object.fromEntries([...upstream.paid].sort())).toEqual({ 'INV-1001': 1, 'INV-1002': 1, 'INV-3001': 1, 'INV-4001': 1, 'INV-4002': 1, 'INV-4003': 1 })
})
