import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { expect, test } from '@playwright/test'
import { ADMIN_STATE } from './global-setup'
import { buildCli, type CliUser, runCli } from '../tests/support/toolroom-cli'

// The toolroom CLI (its compiled binary, as `npx toolroom` runs it) against the server as `npm start`
// runs it: the gateway front with the production Next.js build behind it. An operator diffs a
// manifest (what it creates and which agent gains which tool), applies it, finds nothing left to
// change, gets a resource as YAML and applies that back unchanged, then deletes it all by manifest.
const suffix = Date.now().toString(36)
const ns = `e2e-cli-${suffix}`
const manifest = `apiVersion: toolroom.dev/v1alpha1
kind: Tool
metadata: { name: e2ecli_${suffix}.refund, namespace: ${ns}, labels: { owner: e2e-cli } }
spec:
  type: function
  description: Refund a charge.
  inputSchema: { type: object }
  sideEffects: { level: financial }
---
apiVersion: toolroom.dev/v1alpha1
kind: Unit
metadata: { name: payments, namespace: ${ns}, labels: { owner: e2e-cli } }
spec: { grants: [e2ecli_${suffix}.refund] }
---
apiVersion: toolroom.dev/v1alpha1
kind: Agent
metadata: { name: refunder, namespace: ${ns}, labels: { owner: e2e-cli } }
spec: { unit: payments }
`

let user: CliUser
const toolroom = (args: string[], input = '') => runCli(args, user, { input })

test.beforeAll(async ({ browser, baseURL }) => {
  await buildCli()
  const context = await browser.newContext({ baseURL, storageState: ADMIN_STATE })
  const made = await context.request.post('/api/v1/tokens', {
    headers: { origin: baseURL! },
    data: { name: `e2e-cli-${suffix}`, scopes: ['read', 'write'], expiresInDays: 1 },
  })
  expect(made.status(), await made.text()).toBe(201)
  user = { home: fs.mkdtempSync(path.join(os.tmpdir(), 'toolroom-e2e-cli-')), url: baseURL!, token: ((await made.json()) as { token: string }).token }
  await context.close()
  fs.writeFileSync(path.join(user.home, 'fleet.yaml'), manifest)
})

test.afterAll(() => {
  if (user) fs.rmSync(user.home, { recursive: true, force: true })
})

test('diff, apply, get -o yaml and delete against the production server', async () => {
  test.setTimeout(120_000)
  const diff = await toolroom(['diff', '-f', 'fleet.yaml'])
  expect(diff.code, diff.stderr).toBe(1)
  expect(diff.stdout).toContain(`+ Tool ${ns}/e2ecli_${suffix}.refund would be created (fleet.yaml:1)`)
  expect(diff.stdout).toContain(`${ns}/refunder (new)\n    + e2ecli_${suffix}.refund: `)

  const applied = await toolroom(['apply', '-f', 'fleet.yaml'])
  expect(applied.code, applied.stderr).toBe(0)
  expect(applied.stdout).toContain('3 results: 3 created, 0 updated, 0 unchanged, 0 deleted')
  const again = await toolroom(['diff', '-f', 'fleet.yaml'])
  expect(again.code, again.stdout + again.stderr).toBe(0)
  expect(again.stdout).toContain('No differences: 3 documents unchanged.')

  const agent = await toolroom(['get', 'agent', 'refunder', '-n', ns, '-o', 'yaml'])
  expect(agent.code, agent.stderr).toBe(0)
  expect(agent.stdout).toContain(`e2ecli_${suffix}.refund`)
  const back = await toolroom(['apply', '-f', '-'], agent.stdout)
  expect(back.stdout).toContain(`Agent ${ns}/refunder unchanged`)
  const list = await toolroom(['get', 'units', '-l', 'owner=e2e-cli', '-n', ns, '-o', 'yaml'])
  expect(list.stdout).toMatch(/^apiVersion: v1\nkind: List\n/)
  expect((await toolroom(['diff', '-f', '-'], list.stdout)).code).toBe(0)

  const table = await toolroom(['effective-tools', `${ns}/refunder`])
  expect(table.stdout).toMatch(new RegExp(`e2ecli_${suffix}\\.refund\\s+enabled\\s+grant`))

  const deleted = await toolroom(['delete', '-f', 'fleet.yaml'])
  expect(deleted.code, deleted.stderr).toBe(0)
  expect(deleted.stdout).toBe(`Tool ${ns}/e2ecli_${suffix}.refund deleted\nUnit ${ns}/payments deleted\nAgent ${ns}/refunder deleted\n`)
  const gone = await toolroom(['get', 'agent', 'refunder', '-n', ns])
  expect(gone.code).toBe(1)
  expect(gone.stderr).toContain('not found')
})
