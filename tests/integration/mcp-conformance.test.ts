// The official MCP conformance suite (@modelcontextprotocol/conformance, run on Node.js 22) against
// the gateway, for each revision it serves: every server scenario that revision requires. The
// gateway serves tools, so scenarios of features it does not offer fail for that reason alone; each
// such scenario is listed below with the reason, and every other check must pass. The results, per
// revision and scenario, are written to .data/test-reports/conformance/summary.md (the README's
// table is copied from it). The tools the `tools-call-*` and `json-schema-2020-12` scenarios call are
// served by an upstream of the suite's fixture tools (tests/support/conformance-upstream.ts) behind the
// gateway, reached by their bare names through the agent's sidecar (tests/support/auth-sidecar.ts).
import { execFile } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ensureNode } from '@/scripts/node-versions.mjs'
import { binOf, installedTool } from '@/scripts/npm-tools.mjs'
import { prisma } from '@/lib/db'
import { startAuthSidecar } from '../support/auth-sidecar'
import { CONFORMANCE_TOOLS, startConformanceUpstream } from '../support/conformance-upstream'
import { startGatewayWorld } from '../support/gateway-fixtures'
import type { Listening } from '../support/listen'
import { applyManifest, issueAgentCredential, storeDiscoveredTools, yaml } from './helpers'

const run = promisify(execFile)
const DATA = path.resolve(process.env.TOOLROOM_DATA_DIR ?? '.data')
const REPORTS = path.join(DATA, 'test-reports', 'conformance')
const NODE = '22.23.3'
const REVISIONS = ['2025-11-25', '2026-07-28'] as const

/** Scenarios that exercise what a gateway does not offer, and why; their checks may fail. */
const NOT_OFFERED: Array<[RegExp, string]> = [
  [/^(resources-|sep-2164-)/, 'resources: the gateway serves tools only'],
  [/^prompts-/, 'prompts: the gateway serves tools only'],
  [/^completion-/, 'completion: the gateway serves tools only'],
  [/^logging-|^tools-call-with-logging$/, 'logging (deprecated in 2026-07-28): not offered'],
  [/sampling|elicitation/, 'server-to-client requests (sampling, elicitation): not offered'],
  [/^tasks-/, 'the tasks extension: not offered (task augmentation is ignored, the call runs)'],
  [/^input-required-result-/, "multi round-trip requests: the suite's reference tools; the gateway asks nothing of its clients"],
  [/^http-custom-header-server-validation$/, 'no tool of the test fleet declares x-mcp-header (untestable, as the suite says)'],
]
/** The `tools-call-*` scenarios that apply to a gateway: each calls one of the fixture tools. */
const TOOLS_CALL_SCENARIOS = [
  'tools-call-audio',
  'tools-call-embedded-resource',
  'tools-call-error',
  'tools-call-image',
  'tools-call-mixed-content',
  'tools-call-simple-text',
  'tools-call-with-progress',
]
/** Checks of an otherwise applicable scenario that exercise a feature the gateway does not offer. */
const NOT_OFFERED_CHECKS = /(prompts|resources)-/
/** Checks the suite itself calls untestable here: they need its diagnostic tools (test_missing_capability, …) by their bare names. */
const untestable = (c: Check) => /^Not testable/.test(c.errorMessage ?? '')
const excused = (c: Check) => NOT_OFFERED_CHECKS.test(c.id) || untestable(c)

const notOffered = (scenario: string) => NOT_OFFERED.find(([pattern]) => pattern.test(scenario))?.[1] ?? null

interface Check {
  id: string
  status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'SKIPPED' | 'INFO'
  errorMessage?: string
}
interface ScenarioResult {
  scenario: string
  passed: number
  failed: number
  failures: Check[]
}

let world: Awaited<ReturnType<typeof startGatewayWorld>>
let sidecar: Awaited<ReturnType<typeof startAuthSidecar>>
let fixtures: Listening
let node: string
let cli: string
const results = new Map<string, ScenarioResult[]>()

beforeAll(async () => {
  node = ensureNode(NODE, path.join(DATA, 'node'))
  cli = binOf(installedTool('@modelcontextprotocol/conformance'), 'conformance')
  world = await startGatewayWorld('sk-conformance-1122')
  fixtures = await startConformanceUpstream()
  // An agent of the test fleet's upstream and of the suite's fixture tools (`conformance.<tool>`).
  await applyManifest(yaml`
apiVersion: toolroom.dev/v1alpha1
kind: LanguageTool
metadata: { name: conformance, namespace: gw }
spec: { endpoint: "${fixtures.url}/mcp" }
---
apiVersion: toolroom.dev/v1alpha1
kind: Agent
metadata: { name: conformance-agent, namespace: gw }
spec: { languageTools: [upstream, conformance] }
`)
  await storeDiscoveredTools('gw', 'conformance', CONFORMANCE_TOOLS)
  const agent = await prisma.agent.findUniqueOrThrow({ where: { namespace_name: { namespace: 'gw', name: 'conformance-agent' } } })
  // The suite sends no credential: the agent's sidecar adds its header, as it would for the agent.
  sidecar = await startAuthSidecar(world.gatewayUrl, await issueAgentCredential(agent.id), { toolPrefix: 'conformance.' })
  for (const revision of REVISIONS) {
    const out = path.join(REPORTS, revision)
    fs.rmSync(out, { recursive: true, force: true })
    await run(node, [cli, 'server', '--url', `${sidecar.url}/mcp`, '--requirements', revision, '-o', out], {
      timeout: 900_000,
      maxBuffer: 64 * 1024 * 1024,
    }).catch(() => {
      // it exits 1 when any check fails; the checks themselves are read below
    })
    results.set(revision, readResults(out))
  }
  fs.writeFileSync(path.join(REPORTS, 'summary.md'), summary())
}, 1_500_000)

afterAll(async () => {
  await sidecar?.close()
  await fixtures?.close()
  await world?.stop()
})

function readResults(dir: string): ScenarioResult[] {
  if (!fs.existsSync(dir)) return []
  return fs
    .readdirSync(dir)
    .filter((d) => fs.existsSync(path.join(dir, d, 'checks.json')))
    .map((d) => {
      const checks = JSON.parse(fs.readFileSync(path.join(dir, d, 'checks.json'), 'utf8')) as Check[]
      const scenario = d.replace(/^server-/, '').replace(/-\d{4}-\d{2}-\d{2}T.*$/, '')
      const failures = checks.filter((c) => c.status === 'FAILURE')
      return { scenario, passed: checks.filter((c) => c.status === 'SUCCESS').length, failed: failures.length, failures }
    })
    .sort((a, b) => a.scenario.localeCompare(b.scenario))
}

function summary(): string {
  const { version } = JSON.parse(fs.readFileSync(path.join(installedTool('@modelcontextprotocol/conformance'), 'package.json'), 'utf8'))
  const lines = [`Conformance suite ${version} on Node.js ${NODE}, server scenarios each revision requires.`, '']
  for (const revision of REVISIONS) {
    const all = results.get(revision) ?? []
    const applicable = all.filter((r) => !notOffered(r.scenario))
    lines.push(`### ${revision}`, '', '| scenario | checks passed | failed | verdict |', '|---|---|---|---|')
    for (const r of all) {
      const reason = notOffered(r.scenario)
      const offeredFailures = r.failures.filter((c) => !excused(c))
      const notes = [
        r.failures.some((c) => NOT_OFFERED_CHECKS.test(c.id)) ? 'its failed checks are of prompts/resources, not offered' : '',
        r.failures.some(untestable) ? `${r.failures.filter(untestable).length} checks untestable: they need the suite's diagnostic tools` : '',
      ].filter(Boolean)
      const verdict =
        r.passed + r.failed === 0
          ? 'no check applied (the scenario found nothing of this kind to test)'
          : reason
            ? r.failed === 0
              ? `pass (${reason})`
              : `not offered: ${reason}`
            : offeredFailures.length === 0
              ? `pass${notes.length ? ` (${notes.join('; ')})` : ''}`
              : 'FAIL'
      lines.push(`| ${r.scenario} | ${r.passed} | ${r.failed} | ${verdict} |`)
    }
    lines.push('', `${applicable.filter((r) => r.failures.every(excused)).length} of ${applicable.length} applicable scenarios pass.`, '')
  }
  return lines.join('\n')
}

describe.each(REVISIONS)('the conformance suite, MCP %s', (revision) => {
  it('ran every scenario the revision requires', () => {
    expect((results.get(revision) ?? []).length).toBeGreaterThan(20)
  })

  it('passes every check of the scenarios that apply to a gateway', () => {
    const failing = (results.get(revision) ?? [])
      .filter((r) => !notOffered(r.scenario))
      .flatMap((r) => r.failures.filter((c) => !excused(c)).map((c) => `${r.scenario} / ${c.id}: ${c.errorMessage ?? ''}`))
    expect(failing).toEqual([])
  })

  it("calls the suite's fixture tools through the gateway: every content type, an error result, progress, a 2020-12 schema", () => {
    const byName = new Map((results.get(revision) ?? []).map((r) => [r.scenario, r]))
    const called = [...byName.keys()].filter((name) => /^tools-call-/.test(name) && !notOffered(name))
    expect(called.sort()).toEqual(TOOLS_CALL_SCENARIOS)
    for (const name of [...called, 'json-schema-2020-12']) {
      const result = byName.get(name)
      expect(result, name).toBeDefined()
      expect(result!.failures, name).toEqual([])
      expect(result!.passed, name).toBeGreaterThan(0)
    }
  })

  it('passes the scenarios that test the revision itself', () => {
    const byName = new Map((results.get(revision) ?? []).map((r) => [r.scenario, r]))
    const core =
      revision === '2026-07-28'
        ? ['server-stateless', 'tools-list', 'http-header-validation', 'dns-rebinding-protection']
        : ['server-initialize', 'ping', 'tools-list', 'dns-rebinding-protection']
    for (const name of core) {
      const result = byName.get(name)
      expect(result, name).toBeDefined()
      expect(
        result!.failures.filter((c) => !excused(c)),
        name,
      ).toEqual([])
      expect(result!.passed, name).toBeGreaterThan(0)
    }
  })
})
