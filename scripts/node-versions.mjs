// The Node.js versions Toolroom supports besides the one running `npm test` (package.json `engines`):
// each is fetched once from the npm registry (the `node-<platform>-<arch>` package the `node` package
// itself installs) into .data/node/<version>, then runs the unit suite and a real start of the web
// server, the lean gateway in front of it and a worker (compiled, as production runs them) against a
// migrated database.
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { portalAnswers, startProductionStack, waitForStack } from './production-stack.mjs'

/** Exact versions, so every run tests the same binaries; TOOLROOM_TEST_NODE_VERSIONS overrides (empty: none). */
export const NODE_VERSIONS = (process.env.TOOLROOM_TEST_NODE_VERSIONS ?? '22.23.3,24.21.0')
  .split(',')
  .map((v) => v.trim())
  .filter(Boolean)

/** The path of a `node` binary of `version`, fetched into `cacheDir` on first use. */
export function ensureNode(version, cacheDir, log = () => {}) {
  const dir = path.join(cacheDir, version)
  const binary = path.join(dir, 'bin', 'node')
  if (fs.existsSync(binary)) return binary
  const pkg = `node-${process.platform}-${process.arch}@${version}`
  log(`fetching Node.js ${version} from the npm registry (${pkg}), once`)
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'toolroom-node-'))
  try {
    const tarball = execFileSync('npm', ['pack', pkg, '--pack-destination', tmp, '--silent'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] })
      .trim()
      .split('\n')
      .pop()
    fs.mkdirSync(path.join(tmp, 'out'))
    execFileSync('tar', ['xzf', path.join(tmp, tarball), '-C', path.join(tmp, 'out'), '--strip-components=1', 'package/bin/node'])
    fs.mkdirSync(path.dirname(binary), { recursive: true })
    // Into place in one step, so an interrupted fetch never leaves a half-written binary behind.
    fs.renameSync(path.join(tmp, 'out', 'bin', 'node'), binary)
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true })
  }
  return binary
}

/**
 * Starts the production stack (scripts/production-stack.mjs: web, the gateway in front of it, a
 * worker) with `node`, waits until the portal answers through the gateway, the gateway answers /mcp
 * itself and the worker has taken its queues, then stops them. Resolves with null, or with what went
 * wrong (and what the processes said).
 */
export async function checkProcesses(node, env, { timeoutMs = 120_000 } = {}) {
  const stack = await startProductionStack({ node, env, workers: 1 })
  const checks = {
    ...portalAnswers(stack),
    // No credential: refused with 401, as the README says.
    'the gateway answers /mcp': async () => {
      const res = await fetch(`${stack.base}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
      })
      return res.status === 401
    },
    'the worker takes its queues': async () => /(\[worker\] |"msg":")ready: /.test(stack.output()),
  }
  let failure = null
  try {
    await waitForStack(stack, checks, { timeoutMs, everyMs: 250 })
  } catch (error) {
    failure = error.message
  }
  await stack.stop()
  return failure
}
