// A process started with a value that breaks its rule stops at once, exit code 1, with lib/config.ts's
// message on stderr (the variable, the rule, the value with secrets masked), before it listens, connects
// or logs anything: the compiled gateway, worker and web preload production runs (dist/, `npm run
// build:server`), and the worker from its sources as the tests and `npm run dev` run it.
import { spawn, spawnSync } from 'node:child_process'
import { beforeAll, describe, expect, it } from 'vitest'
import { TSX_NODE_ARGS } from '@/scripts/tsx-node-args.mjs'

interface Exit {
  code: number | null
  stdout: string
  stderr: string
}

function run(args: string[], env: Record<string, string>): Promise<Exit> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { env: { ...process.env, LOG_FORMAT: 'json', ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d) => (stdout += d))
    child.stderr.on('data', (d) => (stderr += d))
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000)
    child.once('exit', (code) => {
      clearTimeout(timer)
      resolve({ code, stdout, stderr })
    })
  })
}

beforeAll(() => {
  const build = spawnSync(process.execPath, ['scripts/build-server.mjs', '--if-stale'], { encoding: 'utf8' })
  if (build.status !== 0) throw new Error(`npm run build:server failed: ${build.stderr}`)
}, 60_000)

describe('a process with a bad value', () => {
  it('the gateway exits 1 naming each variable, its rule and value, and shows no secret', async () => {
    const exit = await run(['dist/gateway.cjs'], { GATEWAY_PORT: 'abc', TOOLROOM_SECRET_KEY: 'hunter2-not-a-key', TOOLROOM_GATEWAY_MAX_ATTEMPTS: '0' })
    expect(exit.code).toBe(1)
    expect(exit.stdout).toBe('')
    expect(exit.stderr).toContain('[toolroom] the configuration is not valid:')
    expect(exit.stderr).toContain('GATEWAY_PORT must be an integer from 0 to 65535 (0: any free port), got "abc"')
    expect(exit.stderr).toContain('TOOLROOM_SECRET_KEY must be 32 random bytes, base64-encoded, got a value of 17 characters (a secret: not shown)')
    expect(exit.stderr).toContain('TOOLROOM_GATEWAY_MAX_ATTEMPTS must be an integer from 1 to 10, got "0"')
    expect(exit.stderr).not.toContain('hunter2')
    expect(exit.stderr).not.toMatch(/\n\s+at /) // a message, not a stack trace
  })

  it('the worker exits 1, compiled or from its sources, with the database password masked', async () => {
    const env = { DATABASE_URL: 'mysql://toolroom:hunter2@db.internal/toolroom', TOOLROOM_WORKER_CONCURRENCY: 'many' }
    for (const args of [['dist/worker.cjs'], [...TSX_NODE_ARGS, 'workers/main.ts']]) {
      const exit = await run(args, env)
      expect(exit.code, args.join(' ')).toBe(1)
      expect(exit.stderr).toContain('DATABASE_URL must be a `postgres://` or `postgresql://` URL, got "mysql://toolroom:***@db.internal/toolroom"')
      expect(exit.stderr).toContain('TOOLROOM_WORKER_CONCURRENCY must be an integer from 1 to 1000, got "many"')
      expect(exit.stderr).not.toContain('hunter2')
    }
  })

  it('the web app stops in its preload, before Next.js starts', async () => {
    const exit = await run(['dist/web-preload.cjs'], {
      LOG_LEVEL: 'loud',
      TOOLROOM_OIDC_ISSUER: 'https://login.example.com',
      TOOLROOM_OIDC_CLIENT_SECRET: 'hunter2',
    })
    expect(exit.code).toBe(1)
    expect(exit.stderr).toContain('LOG_LEVEL must be one of `fatal`, `error`, `warn`, `info`, `debug`, `trace`, `silent`, got "loud"')
    expect(exit.stderr).not.toContain('hunter2')
  })

  it('and with good values the same preload loads and exits 0', async () => {
    const exit = await run(['dist/web-preload.cjs'], { LOG_LEVEL: 'warn', TOOLROOM_GATEWAY_MAX_ATTEMPTS: ' 5 ' })
    expect(exit).toMatchObject({ code: 0, stderr: '' })
  })
})
