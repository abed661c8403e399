// The toolroom CLI as `npx toolroom` runs it: its compiled binary (cli/dist) in a child process, with
// no environment but its own, for the integration and end-to-end tests of the CLI.
import { execFile, spawn } from 'node:child_process'
import path from 'node:path'
import { promisify } from 'node:util'

const BIN = path.resolve('cli/dist/toolroom.mjs')

/**
 * Makes sure cli/dist holds the CLI of the current sources. `npm test` compiles it once before the
 * suites (scripts/build-cli.mjs), so within a run this only checks the fingerprint: three integration
 * files and an e2e spec each compiled it again (tsc, ~6 CPU seconds each), and two of them at once
 * rewrote the files the other was running.
 */
export async function buildCli(): Promise<void> {
  // As a child process, not an import: Playwright's loader turns an imported .mjs into CommonJS, which
  // a module that reads import.meta cannot be.
  try {
    await promisify(execFile)(process.execPath, ['scripts/build-cli.mjs', '--if-stale'])
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string }
    throw new Error(`the CLI did not compile:\n${stdout}${stderr}`)
  }
}

export interface CliRun {
  code: number
  stdout: string
  stderr: string
}

export interface CliUser {
  /** The user's home, which holds their config.yaml, and the working directory. */
  home: string
  url: string
  token: string
}

export interface CliOptions {
  /** Its stdin. */
  input?: string
  /** Variables added to its environment, or (undefined) taken away. */
  env?: Record<string, string | undefined>
}

function cliEnvironment(user: CliUser, env: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const base = {
    PATH: process.env.PATH!,
    HOME: user.home,
    TOOLROOM_CONFIG: path.join(user.home, 'config.yaml'),
    TOOLROOM_URL: user.url,
    TOOLROOM_TOKEN: user.token,
  }
  return Object.fromEntries(Object.entries({ ...base, ...env }).filter(([, v]) => v !== undefined)) as NodeJS.ProcessEnv
}

/** Runs the CLI as `user`. */
export function runCli(args: string[], user: CliUser, { input = '', env = {} }: CliOptions = {}): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: cliEnvironment(user, env), cwd: user.home })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d: Buffer) => (stdout += d))
    child.stderr.on('data', (d: Buffer) => (stderr += d))
    child.on('error', reject)
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }))
    child.stdin.end(input)
  })
}

export interface RunningCli {
  /** Its standard output so far. */
  stdout: () => string
  stderr: () => string
  /** Sends SIGINT (Ctrl-C) and waits for it to end. */
  stop: () => Promise<CliRun>
}

/** Starts the CLI as `user` for a command that runs until stopped (`--watch`). */
export function startCli(args: string[], user: CliUser): RunningCli {
  const child = spawn(process.execPath, [BIN, ...args], { env: cliEnvironment(user, {}), cwd: user.home })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (d: Buffer) => (stdout += d))
  child.stderr.on('data', (d: Buffer) => (stderr += d))
  const ended = new Promise<CliRun>((resolve) => child.on('close', (code, signal) => resolve({ code: code ?? (signal ? 130 : -1), stdout, stderr })))
  return {
    stdout: () => stdout,
    stderr: () => stderr,
    stop: () => {
      child.kill('SIGINT')
      return ended
    },
  }
}
