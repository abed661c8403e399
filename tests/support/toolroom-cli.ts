// The toolroom CLI as `npx toolroom` runs it: its compiled binary (cli/dist) in a child process, with
// no environment but its own, for the integration and end-to-end tests of the CLI.
import { execFile, spawn } from 'node:child_process'
import path from 'node:path'
import { promisify } from 'node:util'

const BIN = path.resolve('cli/dist/toolroom.mjs')

/** Compiles the CLI into cli/dist. */
export async function buildCli(): Promise<void> {
  await promisify(execFile)(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'cli/tsconfig.json'])
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

/** Runs the CLI as `user`. */
export function runCli(args: string[], user: CliUser, { input = '', env = {} }: CliOptions = {}): Promise<CliRun> {
  const base = {
    PATH: process.env.PATH!,
    HOME: user.home,
    TOOLROOM_CONFIG: path.join(user.home, 'config.yaml'),
    TOOLROOM_URL: user.url,
    TOOLROOM_TOKEN: user.token,
  }
  const merged = Object.fromEntries(Object.entries({ ...base, ...env }).filter(([, v]) => v !== undefined)) as NodeJS.ProcessEnv
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: merged, cwd: user.home })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d: Buffer) => (stdout += d))
    child.stderr.on('data', (d: Buffer) => (stderr += d))
    child.on('error', reject)
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }))
    child.stdin.end(input)
  })
}
