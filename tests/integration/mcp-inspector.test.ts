// The official MCP Inspector's CLI (v2, run on Node.js 22 as it requires) against the gateway, in
// both protocol eras it speaks: "legacy" (initialize, 2025-11-25) and "modern" (pinned to
// 2026-07-28, no fallback, so a gateway that did not offer the revision would fail loudly). It lists
// and calls tools with the agent's credential in an Authorization header, as an operator would.
import { execFile } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ensureNode } from '@/scripts/node-versions.mjs'
import { binOf, installedTool } from '@/scripts/npm-tools.mjs'
import { startGatewayWorld } from '../support/gateway-fixtures'

const run = promisify(execFile)
const DATA = path.resolve(process.env.TOOLROOM_DATA_DIR ?? '.data')
const NODE = '22.23.3'

let world: Awaited<ReturnType<typeof startGatewayWorld>>
let node: string
let cli: string
let home: string

beforeAll(async () => {
  node = ensureNode(NODE, path.join(DATA, 'node'))
  cli = binOf(installedTool('@modelcontextprotocol/inspector'), 'mcp-inspector')
  world = await startGatewayWorld('sk-inspector-3344')
  // The Inspector keeps a catalog and OAuth state under the home directory: a fresh one per run.
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'toolroom-inspector-'))
}, 300_000)

afterAll(async () => {
  await world?.stop()
  if (home) fs.rmSync(home, { recursive: true, force: true })
})

async function inspector(era: 'legacy' | 'modern', args: string[], token = world.tokens.tokenA, url = `${world.gatewayUrl}/mcp`) {
  const { stdout } = await run(
    node,
    [
      cli,
      '--cli',
      '--server-url',
      url,
      '--transport',
      'http',
      '--protocol-era',
      era,
      '--header',
      `Authorization: Bearer ${token}`,
      '--format',
      'json',
      '--quiet',
      ...args,
    ],
    {
      timeout: 120_000,
      maxBuffer: 16 * 1024 * 1024,
      env: { ...process.env, HOME: home, MCP_CATALOG_PATH: path.join(home, 'mcp.json'), MCP_CLIENT_CONFIG_PATH: path.join(home, 'client.json') },
    },
  )
  return JSON.parse(stdout)
}

/** The result inside the Inspector's JSON envelope, wherever this version puts it. */
function payload(out: unknown): InspectorResult {
  const envelope = out as { result?: InspectorResult } & InspectorResult
  return envelope.result ?? envelope
}

/** What these tests read of an answer: tools/list's tools, tools/call's structured content. */
interface InspectorResult {
  tools: Array<{ name: string }>
  structuredContent?: unknown
}

describe.each(['legacy', 'modern'] as const)('the MCP Inspector CLI, %s era', (era) => {
  it('lists the agent’s tools and no other agent’s', async () => {
    const names = (payload(await inspector(era, ['--method', 'tools/list'])).tools as Array<{ name: string }>).map((t) => t.name)
    expect(names).toContain('upstream.echo')
    expect(names).not.toContain('secret.only_b')
  }, 180_000)

  it('calls a tool through the pipeline', async () => {
    const before = world.mcp.counts.echo
    const result = payload(
      await inspector(era, ['--method', 'tools/call', '--tool-name', 'upstream.echo', '--tool-args-json', JSON.stringify({ text: `inspector ${era}` })]),
    )
    expect(result.structuredContent).toEqual({ echo: `inspector ${era}` })
    expect(world.mcp.counts.echo).toBe(before + 1)
  }, 180_000)

  it('is refused without the agent’s credential', async () => {
    const refused = await inspector(era, ['--method', 'tools/list', '--stored-auth-only'], 'tra_not-a-real-token').then(
      () => null,
      (e: { stderr?: string; stdout?: string }) => `${e.stderr ?? ''}${e.stdout ?? ''}`,
    )
    expect(refused).toMatch(/401|auth/i)
  }, 180_000)
})

// The control that makes the modern-era tests mean something: pinned to 2026-07-28, the Inspector
// refuses a server that speaks only 2025-11-25 (the SDK v1 upstream), which it lists in the legacy era.
describe('the MCP Inspector CLI against a 2025-11-25-only server', () => {
  it('lists its tools in the legacy era and fails in the modern era', async () => {
    const legacy = payload(await inspector('legacy', ['--method', 'tools/list'], 'unused', `${world.mcp.url}/mcp`))
    expect(legacy.tools.map((t: { name: string }) => t.name)).toContain('echo')
    await expect(inspector('modern', ['--method', 'tools/list'], 'unused', `${world.mcp.url}/mcp`)).rejects.toThrow()
  }, 180_000)
})
