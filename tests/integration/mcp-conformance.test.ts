// The official MCP conformance suite (@modelcontextprotocol/conformance, on Node.js 22) against the
// gateway, per revision: the server scenarios that apply to a gateway (lifecycle, statelessness,
// header validation, tools, errors, progress, caching, DNS rebinding). Scenarios that test features a
// gateway does not offer (resources, prompts, completion, sampling, elicitation, logging, tasks) are
// left out, and the README says which. The results are written to .data/test-reports/conformance.
import { execFile } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ensureNode } from '@/scripts/node-versions.mjs'
import { binOf, ensureNpmTool } from '@/scripts/npm-tools.mjs'
import { startAuthSidecar } from '../support/auth-sidecar'
import { startGatewayWorld } from '../support/gateway-fixtures'

const run = promisify(execFile)
const DATA = path.resolve(process.env.TOOLROOM_DATA_DIR ?? '.data')
const REPORTS = path.join(DATA, 'test-reports', 'conformance')
export const CONFORMANCE_VERSION = '0.2.0-alpha.12'

let world: Awaited<ReturnType<typeof startGatewayWorld>>
let sidecar: Awaited<ReturnType<typeof startAuthSidecar>>
let node: string
let cli: string

beforeAll(async () => {
  node = ensureNode('22.23.3', path.join(DATA, 'node'))
  cli = binOf(ensureNpmTool('@modelcontextprotocol/conformance', CONFORMANCE_VERSION, path.join(DATA, 'tools')), 'conformance')
  world = await startGatewayWorld('sk-conformance-1122')
  sidecar = await startAuthSidecar(world.gatewayUrl, world.tokens.tokenA)
}, 600_000)

afterAll(async () => {
  await sidecar?.close()
  await world?.stop()
})

async function scenario(name: string, specVersion: string) {
  const out = path.join(REPORTS, specVersion, name)
  fs.rmSync(out, { recursive: true, force: true })
  const result = await run(node, [cli, 'server', '--url', `${sidecar.url}/mcp`, '--scenario', name, '--spec-version', specVersion, '--force', '-o', out, '--verbose'], { timeout: 120_000, maxBuffer: 32 * 1024 * 1024 }).catch((e: { stdout?: string; stderr?: string; code?: number }) => e)
  return { stdout: String((result as { stdout?: string }).stdout ?? ''), stderr: String((result as { stderr?: string }).stderr ?? ''), out }
}

describe('explore', () => {
  it('runs', async () => {
    for (const v of ['2025-11-25', '2026-07-28']) {
      const out = path.join(REPORTS, 'all', v)
      fs.rmSync(out, { recursive: true, force: true })
      const r = await run(node, [cli, 'server', '--url', `${sidecar.url}/mcp`, '--requirements', v, '-o', out], { timeout: 900_000, maxBuffer: 64 * 1024 * 1024 }).catch((e: { stdout?: string }) => e)
      fs.writeFileSync(path.join(REPORTS, `all-${v}.txt`), String((r as { stdout?: string }).stdout ?? ''))
    }
    expect(true).toBe(true)
  }, 1_200_000)
})
