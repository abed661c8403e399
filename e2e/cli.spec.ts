import { execFile, spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { expect, test } from '@playwright/test'
import { ADMIN_STATE } from './global-setup'

// The toolroom CLI (its compiled binary, as `npx toolroom` runs it) against the server as `npm start`
// runs it: the gateway front with the production Next.js build behind it. An operator diffs a
// manifest (what it creates and which agent gains which tool), applies it, finds nothing left to
// change, gets a resource as YAML and applies that back unchanged, then deletes it all by manifest.
const BIN = path.resolve('cli/dist/toolroom.mjs')
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

let home: string
let env: Record<string, string>

function toolroom(args: string[], input = ''): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: env as NodeJS.ProcessEnv, cwd: home })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d: Buffer) => (stdout += d))
    child.stderr.on('data', (d: Buffer) => (stderr += d))
    child.on('error', reject)
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }))
    child.stdin.end(input)
  })
}

test.beforeAll(async ({ browser, baseURL }) => {
  await promisify(execFile)(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'cli/tsconfig.json'])
  const context = await browser.newContext({ baseURL, storageState: ADMIN_STATE })
  const made = await context.request.post('/api/v1/tokens', {
    headers: { origin: baseURL! },
    data: { name: `e2e-cli-${suffix}`, scopes: ['read', 'write'], expiresInDays: 1 },
  })
  expect(made.status(), await made.text()).toBe(201)
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'toolroom-e2e-cli-'))
  env = {
    PATH: process.env.PATH!,
    HOME: home,
    TOOLROOM_CONFIG: path.join(home, 'config.yaml'),
    TOOLROOM_URL: baseURL!,
    TOOLROOM_TOKEN: ((await made.json()) as { token: string }).token,
  }
  await context.close()
  fs.writeFileSync(path.join(home, 'fleet.yaml'), manifest)
})

test.afterAll(() => {
  if (home) fs.rmSync(home, { recursive: true, force: true })
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
