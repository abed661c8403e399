import { createHash, randomBytes } from 'node:crypto'
import { expect, request, test } from '@playwright/test'
import { DEMO_PASSWORDS, demoEmail } from './support/sign-in'

// MCP authorization in the browser: an admin registers an OAuth client for an agent on the Access
// tokens page; a person signs in from the client's authorization request, lands on the consent page,
// allows it, and the code it hands the client gets a token that opens /mcp as that agent.
const SCREENSHOTS = '.data/test-reports/screenshots'
const REDIRECT = 'http://127.0.0.1:53682/callback'

test('register an OAuth client, authorize it through sign-in and consent, and call /mcp with its token', async ({ page, browser, baseURL }) => {
  const agents = await (await page.request.get('/api/v1/agents?limit=1')).json()
  const ref = `${agents.items[0].metadata.namespace}/${agents.items[0].metadata.name}`
  await page.goto('/tokens')
  const section = page.getByRole('region', { name: 'OAuth clients (MCP authorization)' })
  const form = section.locator('section', { has: page.getByRole('heading', { name: 'Register an OAuth client' }) })
  await form.getByLabel('Agent').fill(ref)
  const name = `e2e-oauth-${Date.now()}`
  await form.getByLabel('Name').fill(name)
  await form.getByLabel('Redirect URIs (one per line)').fill(REDIRECT)
  await form.getByRole('button', { name: 'Register client' }).click()
  await expect(form.getByRole('status')).toContainText(`Registered “${name}”`)
  const clientId = (await form.getByRole('status').locator('code').textContent())!.trim()
  await expect(section.getByTestId(`oauth-client-${clientId}`)).toContainText(ref)
  for (const [label, viewport] of [
    ['desktop', { width: 1440, height: 900 }],
    ['phone', { width: 390, height: 844 }],
  ] as const) {
    await page.setViewportSize(viewport)
    await section.scrollIntoViewIfNeeded()
    await page.screenshot({ path: `${SCREENSHOTS}/oauth-clients-${label}.png`, fullPage: true })
  }

  // The client's side: PKCE and the authorization request, in a browser that is not signed in.
  const verifier = randomBytes(32).toString('base64url')
  const authorize = new URL('/api/auth/oauth2/authorize', baseURL)
  for (const [k, v] of Object.entries({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: REDIRECT,
    scope: 'mcp',
    state: 'e2e-state',
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    resource: new URL('/mcp', baseURL).href,
  }))
    authorize.searchParams.set(k, v)
  await page.request.get('/.well-known/oauth-protected-resource/mcp')
  const context = await browser.newContext({ storageState: { cookies: [], origins: [] } })
  const person = await context.newPage()
  let redirected: URL | null = null
  await person.route(`${REDIRECT}**`, (route) => {
    redirected = new URL(route.request().url())
    return route.fulfill({ status: 200, contentType: 'text/plain', body: 'the MCP client takes it from here' })
  })
  await person.goto(authorize.href)
  await expect(person).toHaveURL(/\/sign-in\?/)
  await expect(person.getByText('An MCP client asks to connect to Toolroom')).toBeVisible()
  await person.getByLabel('Email').fill(demoEmail('operator'))
  await person.getByLabel('Password').fill(DEMO_PASSWORDS.operator)
  await person.getByRole('button', { name: 'Sign in' }).click()
  await expect(person).toHaveURL(/\/oauth\/consent\?/)
  await expect(person.getByRole('heading', { name: 'Connect an MCP client' })).toBeVisible()
  await expect(person.getByText(name)).toBeVisible()
  await expect(person.getByText(ref)).toBeVisible()
  for (const [label, viewport] of [
    ['desktop', { width: 1440, height: 900 }],
    ['phone', { width: 390, height: 844 }],
  ] as const) {
    await person.setViewportSize(viewport)
    await person.screenshot({ path: `${SCREENSHOTS}/oauth-consent-${label}.png`, fullPage: true })
  }
  await person.getByRole('button', { name: 'Allow' }).click()
  await expect.poll(() => redirected?.searchParams.get('code') ?? null).not.toBeNull()
  expect(redirected!.searchParams.get('state')).toBe('e2e-state')
  await context.close()

  // The client is a program, not the admin's browser: no cookies.
  const client = await request.newContext({ baseURL, storageState: { cookies: [], origins: [] } })
  const token = await client.post('/api/auth/oauth2/token', {
    form: {
      grant_type: 'authorization_code',
      code: redirected!.searchParams.get('code')!,
      redirect_uri: REDIRECT,
      client_id: clientId,
      code_verifier: verifier,
      resource: new URL('/mcp', baseURL).href,
    },
  })
  expect(token.status()).toBe(200)
  const { access_token: accessToken } = await token.json()
  expect(accessToken).toMatch(/^tro_/)
  const listed = await client.post('/mcp', {
    headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    data: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
  })
  expect(listed.status()).toBe(200)
  expect((await listed.json()).result.tools.length).toBeGreaterThan(0)
  await client.dispose()
})
