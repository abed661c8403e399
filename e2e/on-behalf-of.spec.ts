// On whose behalf, in the portal: an agent exchanges a person's token from the organisation's IdP (a
// real oidc-provider) for a token that acts for her (RFC 8693 at Toolroom's token endpoint), its
// payment waits for approval, and the queue and the request's detail say "… for Jane Doe", and
// until when the call can still act for her (her token expires before the request), on a desktop and on a phone.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { type APIRequestContext, expect, request as playwrightRequest, test } from '@playwright/test'
import { startTestIdp, type TestIdp } from '../tests/support/oidc-idp'
import { ADMIN_STATE } from './global-setup'
import { agentClient, type ApprovalWorld, type PaymentsUpstream, registerApprovalWorld, startPaymentsUpstream } from './support/approvals'

test.describe.configure({ mode: 'serial' })

const BASE_URL = process.env.E2E_BASE_URL!
const suffix = `obo-${Date.now().toString(36)}`
const SCREENSHOTS = '.data/test-reports/screenshots'

let upstream: PaymentsUpstream
let idp: TestIdp
let admin: APIRequestContext
let world: ApprovalWorld
let agent: Client

test.beforeAll(async () => {
  upstream = await startPaymentsUpstream()
  idp = await startTestIdp([], [])
  admin = await playwrightRequest.newContext({ baseURL: BASE_URL, storageState: ADMIN_STATE, extraHTTPHeaders: { origin: BASE_URL } })
  world = await registerApprovalWorld(admin, upstream.url, suffix)
  const trusted = await admin.post('/api/v1/apply', {
    headers: { 'content-type': 'application/yaml' },
    data: `apiVersion: toolroom.dev/v1alpha1\nkind: IdentityProvider\nmetadata: { name: e2e-sso-${suffix} }\nspec: { issuer: "${idp.issuer}", audiences: [toolroom] }\n`,
  })
  expect(trusted.status(), await trusted.text()).toBe(200)
  const subjectToken = await idp.personToken({ subject: 'jane-0042', claims: { name: 'Jane Doe' } }, { audience: 'toolroom' })
  const exchanged = await fetch(`${BASE_URL}/api/auth/oauth2/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange',
      subject_token: subjectToken,
      subject_token_type: 'urn:ietf:params:oauth:token-type:jwt',
      actor_token: world.token,
      actor_token_type: 'urn:ietf:params:oauth:token-type:access_token',
      resource: `${BASE_URL}/mcp`,
    }),
  })
  const answer = (await exchanged.json()) as { access_token?: string }
  expect(exchanged.status, JSON.stringify(answer)).toBe(200)
  agent = await agentClient(BASE_URL, answer.access_token!)
})

test.afterAll(async () => {
  await agent?.close()
  await idp?.close()
  await upstream?.close()
  await admin?.dispose()
})

test('the queue and the request say which person the agent asked for', async ({ browser }) => {
  const held = (await agent.callTool({ name: world.toolId, arguments: { invoice: `INV-${suffix}`, amount: 120 } })) as {
    structuredContent?: { status?: string }
  }
  expect(JSON.stringify(held)).toMatch(/approval/)
  for (const [name, viewport] of [
    ['desktop', { width: 1440, height: 900 }],
    ['phone', { width: 390, height: 844 }],
  ] as const) {
    const context = await browser.newContext({ storageState: ADMIN_STATE, viewport })
    const page = await context.newPage()
    await page.goto(`/approvals?tool=${encodeURIComponent(world.toolId)}`)
    const row = page.getByTestId('approval-row').first()
    await expect(row.getByTestId('on-behalf-of')).toHaveText(' for Jane Doe')
    await expect(row).toContainText(`${world.agentName} for Jane Doe`)
    // Jane's token from the IdP expires (10 min) long before the request (hours): the queue says so.
    await expect(row.getByTestId('person-time-left')).toHaveText(/^for Jane Doe: \d+ min left$/)
    await page.screenshot({ path: `${SCREENSHOTS}/on-behalf-of-queue-${name}.png`, fullPage: true })
    await row.click()
    await expect(page.getByTestId('approval-detail')).toContainText('On behalf of')
    await expect(page.getByTestId('approval-detail')).toContainText('Jane Doe')
    await expect(page.getByTestId('approval-detail')).toContainText('can act for them until')
    await page.screenshot({ path: `${SCREENSHOTS}/on-behalf-of-detail-${name}.png`, fullPage: true })
    await context.close()
  }
})

test('an identity provider whose keys cannot be had says so on its pages, and one that refused tokens counts them', async ({ browser }) => {
  const down = await startTestIdp([], [])
  const downName = `e2e-down-${suffix}`
  const applied = await admin.post('/api/v1/apply', {
    headers: { 'content-type': 'application/yaml' },
    data: `apiVersion: toolroom.dev/v1alpha1\nkind: IdentityProvider\nmetadata: { name: ${downName} }\nspec: { issuer: "${down.issuer}", jwksUri: "${down.issuer}/jwks", audiences: [toolroom] }\n`,
  })
  expect(applied.status(), await applied.text()).toBe(200)
  const stranded = await down.personToken({ subject: 'omar-0007', claims: { name: 'Omar Haddad' } }, { audience: 'toolroom' })
  await down.close()
  const exchange = (subjectToken: string) =>
    fetch(`${BASE_URL}/api/auth/oauth2/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange',
        subject_token: subjectToken,
        subject_token_type: 'urn:ietf:params:oauth:token-type:jwt',
        actor_token: world.token,
        actor_token_type: 'urn:ietf:params:oauth:token-type:access_token',
        resource: `${BASE_URL}/mcp`,
      }),
    })
  expect((await exchange(stranded)).status).toBe(503)
  expect((await exchange(await idp.personToken({ subject: 'jane-0042', claims: { name: 'Jane Doe' } }, { audience: 'elsewhere' }))).status).toBe(400)

  for (const [name, viewport] of [
    ['desktop', { width: 1440, height: 900 }],
    ['phone', { width: 390, height: 844 }],
  ] as const) {
    const context = await browser.newContext({ storageState: ADMIN_STATE, viewport })
    const page = await context.newPage()
    const failed = page.getByTestId('identity-provider-row').filter({ hasText: downName })
    // The status is written moments after the exchange was answered.
    await expect(async () => {
      await page.goto(`/identity-providers?q=${suffix}`)
      await expect(failed).toContainText('Failed', { timeout: 2_000 })
    }).toPass({ timeout: 20_000 })
    await expect(failed).toContainText('could not be reached')
    await expect(page.getByTestId('identity-provider-row').filter({ hasText: `e2e-sso-${suffix}` })).toContainText('Ready')
    await page.screenshot({ path: `${SCREENSHOTS}/identity-provider-status-list-${name}.png`, fullPage: true })
    await failed.getByRole('link').click()
    await expect(page.getByTestId('identity-provider-conditions')).toContainText(`IdentityProvider default/${downName} could not be reached`)
    await page.screenshot({ path: `${SCREENSHOTS}/identity-provider-status-failed-${name}.png`, fullPage: true })
    await page.goto(`/identity-providers?q=${suffix}`)
    await page
      .getByTestId('identity-provider-row')
      .filter({ hasText: `e2e-sso-${suffix}` })
      .getByRole('link')
      .click()
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`e2e-sso-${suffix}`)
    // Refusals are counted in batches, written seconds apart.
    await expect(async () => {
      await page.reload()
      await expect(page.getByTestId('refusal-row').filter({ hasText: 'Wrong audience' })).toBeVisible({ timeout: 2_000 })
    }).toPass({ timeout: 30_000 })
    await page.screenshot({ path: `${SCREENSHOTS}/identity-provider-status-ready-${name}.png`, fullPage: true })
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1)).toBe(true)
    await context.close()
  }
})
