// `toolroom policy test -f cases.yaml`, run as the compiled CLI in child processes against a real HTTP
// server over the app's route modules: a Policy from a manifest file and an applied one, exit 0 when
// every case gets its effect and 1 with a per-case diff when one does not, refusals at their file and
// line, and a cases file that cannot run (exit 2).
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startApiServer } from '../support/api-server'
import type { Listening } from '../support/listen'
import { buildCli, runCli } from '../support/toolroom-cli'
import { applyManifest, resetDatabase, testAdminToken } from './helpers'

let server: Listening
let token: string
let home: string

const toolroom = (args: string[]) => runCli(args, { home, url: server.url, token })
const write = (name: string, text: string) => {
  const file = path.join(home, name)
  fs.writeFileSync(file, text)
  return file
}

const POLICY = `apiVersion: toolroom.dev/v1alpha1
kind: Policy
metadata: { name: large-refunds, namespace: northwind }
spec:
  selector: { tools: [stripe.create_refund], agents: { matchLabels: { team: ap } } }
  rules:
    - when: has(args.amount) && args.amount > 50000
      effect: require_approval
      reason: Refunds above 500.00 need a second person
`

const CASES = `policyFile: policy.yaml
cases:
  - name: a large refund waits for a person
    tool: stripe.create_refund
    agent: { labels: { team: ap } }
    args: { amount: 70000 }
    expect: require_approval
  - name: a small one goes through
    tool: stripe.create_refund
    agent: { labels: { team: ap } }
    args: { amount: 1200 }
    expect: allow
  - name: another team is not reached
    tool: stripe.create_refund
    agent: { labels: { team: ops } }
    args: { amount: 70000 }
    expect: allow
`

beforeAll(async () => {
  await buildCli()
  await resetDatabase()
  token = await testAdminToken()
  server = await startApiServer()
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'toolroom-policy-test-'))
  write('policy.yaml', POLICY)
}, 120_000)

afterAll(async () => {
  await server?.close()
  fs.rmSync(home, { recursive: true, force: true })
})

describe('toolroom policy test', () => {
  it('exits 0 when every case gets the effect it expects', async () => {
    const run = await toolroom(['policy', 'test', '-f', write('cases.yaml', CASES)])
    expect(run.stderr).toBe('')
    expect(run.code, run.stdout).toBe(0)
    expect(run.stdout).toContain('policy northwind/large-refunds (from the file)')
    expect(run.stdout).toContain('ok    a large refund waits for a person: require_approval')
    expect(run.stdout).toContain('3 passed, 0 failed')
  })

  it('exits 1 with what each failing case got, and why', async () => {
    const file = write('failing.yaml', CASES.replace('args: { amount: 1200 }\n    expect: allow', 'args: { amount: 90000 }\n    expect: allow'))
    const run = await toolroom(['policy', 'test', '-f', file])
    expect(run.code, run.stdout + run.stderr).toBe(1)
    expect(run.stdout).toContain(`FAIL  a small one goes through (${file}:8): expected allow, got require_approval`)
    expect(run.stdout).toContain('stripe.create_refund waits for approval: Refunds above 500.00 need a second person (rule 0)')
    expect(run.stdout).toContain('rule 0 (require_approval): matched with args.amount=90000')
    expect(run.stdout).toContain('2 passed, 1 failed')

    const json = await toolroom(['policy', 'test', '-f', file, '-o', 'json'])
    expect(json.code).toBe(1)
    expect(JSON.parse(json.stdout)).toMatchObject({
      passed: 2,
      failed: 1,
      cases: [{ pass: true }, { pass: false, effect: 'require_approval' }, { pass: true, reached: false }],
    })
  })

  it('tests the applied Policy by name', async () => {
    const applied = await applyManifest(POLICY.replace('> 50000', '> 100000'))
    expect(applied.status, applied.text).toBe(200)
    const cases = write('applied.yaml', CASES.replace('policyFile: policy.yaml', 'policy: northwind/large-refunds'))
    const run = await toolroom(['policy', 'test', '-f', cases])
    expect(run.code, run.stdout).toBe(1)
    expect(run.stdout).toContain('policy northwind/large-refunds (as applied)')
    expect(run.stdout).toContain('expected require_approval, got allow')
    // --policy-file tests the manifest as written instead.
    expect((await toolroom(['policy', 'test', '-f', cases, '--policy-file', path.join(home, 'policy.yaml')])).code).toBe(0)
  })

  it('shows a refused case or condition at its file and line', async () => {
    const cases = write('bad-cases.yaml', CASES.replace('expect: allow', 'expect: allowed'))
    const run = await toolroom(['policy', 'test', '-f', cases])
    expect(run.code).toBe(1)
    expect(run.stderr).toContain(`${cases}:12: cases[1].expect:`)

    write('bad-policy.yaml', POLICY.replace('has(args.amount) && args.amount > 50000', 'args.amount > limit'))
    const policyRun = await toolroom(['policy', 'test', '-f', write('bad-policy-cases.yaml', CASES.replace('policy.yaml', 'bad-policy.yaml'))])
    expect(policyRun.code).toBe(1)
    expect(policyRun.stderr).toContain(`${path.join(home, 'bad-policy.yaml')}:7: policy.spec.rules[0].when:`)
    expect(policyRun.stderr).toContain('cel-unknown-variable')
  })

  it('exits 2 when it cannot run: no cases file, no Policy named', async () => {
    expect((await toolroom(['policy', 'test'])).code).toBe(2)
    const run = await toolroom(['policy', 'test', '-f', write('no-policy.yaml', CASES.replace('policyFile: policy.yaml\n', ''))])
    expect(run.code).toBe(2)
    expect(run.stderr).toContain('say which Policy to test')
    expect((await toolroom(['policy', 'test', '--help'])).code).toBe(0)
  })
})
