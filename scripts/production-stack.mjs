// The production processes as `npm start` runs them from a build (scripts/start.mjs supervises its
// own): the web app (`next start`, after dist/web-preload.cjs), the lean gateway in front of it
// (dist/gateway.cjs, which answers /mcp and passes the rest on) and workers (dist/worker.cjs). The
// test runner, the Node.js version checks, the fuzzer and the benchmarks start them here, so each
// runs what production runs. The image check runs the image's own entrypoint instead (check-image.mjs).
import { spawn } from 'node:child_process'
import { freePort } from './free-port.mjs'
import { needsBuild, recordBuild } from './start-helpers.mjs'
import { stopChild } from './stop-child.mjs'

/** The arguments to `node` of each production process. */
export const PRODUCTION_ARGS = {
  web: ({ port, host = '127.0.0.1', preload = true }) => [
    ...(preload ? ['-r', './dist/web-preload.cjs'] : []),
    'node_modules/next/dist/bin/next',
    'start',
    '-p',
    String(port),
    '-H',
    host,
  ],
  gateway: () => ['dist/gateway.cjs'],
  worker: () => ['dist/worker.cjs'],
}

/**
 * The web app's production build when a source changed since the last, then the compiled gateway,
 * worker and scripts (dist/) when theirs did. Rejects naming the step that failed. `output`: where
 * the builds write (a file descriptor, or 'inherit'); `track` is given each build process (so a
 * caller that is stopped can stop it too).
 */
export async function buildForProduction({ log = () => {}, output = 'inherit', env = {}, track = () => {} } = {}) {
  const step = (name, args, extra = {}) =>
    new Promise((resolve, reject) => {
      const stdio = output === 'inherit' ? 'inherit' : ['ignore', output, output]
      const child = spawn(process.execPath, args, { stdio, env: { ...process.env, ...extra } })
      track(child)
      child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${name} failed (exit ${code})`))))
    })
  const sources = needsBuild()
  if (sources) {
    log('building the web app for production (the sources changed since the last build)…')
    await step('next build', ['node_modules/next/dist/bin/next', 'build'], { NEXT_TELEMETRY_DISABLED: '1', ...env })
    recordBuild(sources)
  }
  await step('the server build', ['scripts/build-server.mjs', '--if-stale'])
}

/**
 * Starts the web app on 127.0.0.1, with the gateway in front of it on `port` (free ports when not
 * given; `front: false` leaves the gateway out), and `workers` workers. `output`: a file descriptor the processes write to, or 'collect' to
 * keep what they say (`stack.output()`, each line marked with its process). `webPreload: false`
 * leaves out the preload (and with it the masking of secret values in the log).
 */
export async function startProductionStack({
  node = process.execPath,
  env = {},
  port,
  webPort,
  front = true,
  workers = 0,
  output = 'collect',
  webPreload = true,
}) {
  port ??= await freePort()
  // Without the front (TOOLROOM_GATEWAY_FRONT=0 in npm start), the web app serves `port` itself.
  webPort = front ? (webPort ?? (await freePort())) : port
  const children = []
  let said = ''
  const start = (name, args, extra = {}) => {
    const stdio = output === 'collect' ? ['ignore', 'pipe', 'pipe'] : ['ignore', output, output]
    const child = spawn(node, args, { stdio, env: { ...process.env, ...env, ...extra } })
    if (output === 'collect') for (const stream of [child.stdout, child.stderr]) stream.on('data', (d) => (said += `${d}`.replace(/^(?=.)/gm, `[${name}] `)))
    children.push({ name, child })
  }
  start('web', PRODUCTION_ARGS.web({ port: webPort, preload: webPreload }), { NODE_ENV: 'production' })
  if (front)
    start('gateway', PRODUCTION_ARGS.gateway(), { GATEWAY_PORT: String(port), HOST: '127.0.0.1', TOOLROOM_GATEWAY_UPSTREAM: `http://127.0.0.1:${webPort}` })
  for (let i = 1; i <= workers; i++) start(workers === 1 ? 'worker' : `worker ${i}`, PRODUCTION_ARGS.worker())
  return {
    base: `http://127.0.0.1:${port}`,
    webBase: `http://127.0.0.1:${webPort}`,
    children,
    output: () => said,
    /** The first process that has exited, if any: `name (code)`. */
    exited() {
      const dead = children.find(({ child }) => child.exitCode !== null || child.signalCode !== null)
      return dead ? `${dead.name} (${dead.child.exitCode ?? dead.child.signalCode})` : null
    },
    stop: (graceMs) => Promise.all(children.map(({ child }) => stopChild(child, graceMs))),
  }
}

/**
 * Resolves once every check of `checks` (name → async predicate) has held, each asked until it
 * does; rejects naming the checks still pending when `timeoutMs` have passed, or the process that
 * exited first, with what the processes said when it was collected.
 */
export async function waitForStack(stack, checks, { timeoutMs = 120_000, everyMs = 200 } = {}) {
  const pending = new Set(Object.keys(checks))
  const deadline = Date.now() + timeoutMs
  const said = () => (stack.output() ? `\n${stack.output()}` : '')
  while (pending.size > 0) {
    const dead = stack.exited()
    if (dead) throw new Error(`${dead} exited before everything was up: still waiting for ${[...pending].join('; ')}${said()}`)
    if (Date.now() > deadline) throw new Error(`not within ${timeoutMs / 1000} s: ${[...pending].join('; ')}${said()}`)
    for (const name of [...pending]) if (await checks[name]().catch(() => false)) pending.delete(name)
    if (pending.size > 0) await new Promise((r) => setTimeout(r, everyMs))
  }
}

/** The check that the portal answers through the gateway (GET /api/health). */
export const portalAnswers = (stack) => ({
  [`the portal answers ${stack.base}/api/health`]: async () => (await fetch(`${stack.base}/api/health`)).ok,
})
