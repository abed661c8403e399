// Real requests in every world's approval queue and calls explorer, so the page walk
// (e2e/support/page-walk.ts) sees their rows: the demo AP clerk asks for two payments (financial,
// approval required) through the gateway. Made once per world, before any spec, and left waiting: the
// tool allows 2 calls a minute, so the walk's two files (or a worker restarted after a failure) cannot
// each make their own. Other specs filter the queue by their own tools.
import { expect, request as playwrightRequest } from '@playwright/test'
import { agentClient } from './approvals'

export async function ensurePendingPayments(baseURL: string, adminState: string): Promise<void> {
  const admin = await playwrightRequest.newContext({ baseURL, storageState: adminState, extraHTTPHeaders: { origin: baseURL } })
  try {
    const waiting = await (await admin.get('/api/v1/approvals?status=pending&tool=erp.schedule_payment&limit=1')).json()
    if (waiting.total > 0) return
    const clerk = await (await admin.get('/api/v1/agents/ap-clerk?namespace=finance')).json()
    const credential = await admin.post(`/api/v1/agents/${clerk.id}/credentials`, { data: { name: `e2e page walk ${Date.now().toString(36)}` } })
    expect(credential.status(), await credential.text()).toBe(201)
    const agent = await agentClient(baseURL, (await credential.json()).token)
    try {
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
    } finally {
      await agent.close()
    }
  } finally {
    await admin.dispose()
  }
}
