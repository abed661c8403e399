// `os` tools: the declared argument vector run with spawn (never a shell), in a fresh temporary
// working directory removed afterwards, with a minimal environment, a timeout that kills the whole
// process group, and a cap on captured output. Off unless TOOLROOM_ENABLE_OS_TOOLS=1.
//
// Arguments reach the command only through `{{args.<name>}}` placeholders inside argv items: the
// value (a string, or the JSON of anything else) is substituted into that one item and never split,
// so an argument cannot add options or commands. An item that is exactly a placeholder of an array
// argument becomes one item per element. argv[0] cannot take a placeholder.
import 'server-only'
import { spawn } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { config } from '@/lib/config'
import type { ToolSpec } from '@/lib/manifests/specs/tool'
import { RPC, ToolFailure } from '../tool-errors'

type Command = NonNullable<ToolSpec['command']>

export const osToolsEnabled = () => config().TOOLROOM_ENABLE_OS_TOOLS

const PLACEHOLDER = /\{\{\s*args\.([A-Za-z0-9_-]+)\s*\}\}/g
const WHOLE = /^\{\{\s*args\.([A-Za-z0-9_-]+)\s*\}\}$/
const SAFE_PATH = '/usr/local/bin:/usr/bin:/bin'

const text = (v: unknown) => (v === undefined || v === null ? '' : typeof v === 'string' ? v : JSON.stringify(v))

/** The argv to run, arguments substituted. Pure. */
export function buildArgv(argv: readonly string[], args: Record<string, unknown>): string[] {
  const [program, ...rest] = argv
  if (PLACEHOLDER.test(program)) throw new ToolFailure('the command (argv[0]) cannot come from an argument', 'bad_command')
  PLACEHOLDER.lastIndex = 0
  const out = [program]
  for (const item of rest) {
    const whole = WHOLE.exec(item)
    const value = whole ? args[whole[1]] : undefined
    if (whole && Array.isArray(value)) out.push(...value.map(text))
    else out.push(item.replace(PLACEHOLDER, (_m, name: string) => text(args[name])))
  }
  return out
}

export async function executeOs(command: Command, args: Record<string, unknown>, signal?: AbortSignal): Promise<CallToolResult> {
  const argv = buildArgv(command.argv, args)
  const timeoutMs = (command.timeoutSeconds ?? 30) * 1000
  const maxBytes = command.maxOutputBytes ?? 1024 * 1024
  const cwd = await mkdtemp(path.join(tmpdir(), 'toolroom-os-'))
  try {
    const run = await new Promise<{ code: number | null; signal: string | null; stdout: string; stderr: string; truncated: boolean; timedOut: boolean }>(
      (resolve, reject) => {
        const child = spawn(argv[0], argv.slice(1), {
          cwd,
          shell: false,
          detached: true, // its own process group, so the timeout kills what it started too
          stdio: ['ignore', 'pipe', 'pipe'],
          env: { PATH: SAFE_PATH, HOME: cwd, TMPDIR: cwd, LANG: 'C.UTF-8' } as unknown as NodeJS.ProcessEnv,
        })
        const out: Buffer[] = []
        const err: Buffer[] = []
        let size = 0
        let truncated = false
        let timedOut = false
        const kill = () => {
          try {
            process.kill(-child.pid!, 'SIGKILL')
          } catch {
            // already gone
          }
        }
        const collect = (into: Buffer[]) => (chunk: Buffer) => {
          if (truncated) return
          size += chunk.length
          if (size > maxBytes) {
            truncated = true
            into.push(chunk.subarray(0, chunk.length - (size - maxBytes)))
            kill()
          } else into.push(chunk)
        }
        child.stdout.on('data', collect(out))
        child.stderr.on('data', collect(err))
        const timer = setTimeout(() => {
          timedOut = true
          kill()
        }, timeoutMs)
        const onAbort = () => kill()
        signal?.addEventListener('abort', onAbort, { once: true })
        child.on('error', (e) => {
          clearTimeout(timer)
          reject(new ToolFailure(`the command cannot be started: ${e.message}`, 'spawn_failed'))
        })
        child.on('close', (code, sig) => {
          clearTimeout(timer)
          signal?.removeEventListener('abort', onAbort)
          resolve({ code, signal: sig, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8'), truncated, timedOut })
        })
      },
    )
    const structured = { exitCode: run.code, stdout: run.stdout, stderr: run.stderr, truncated: run.truncated }
    // What the command said about its failure is on stderr (or, for some, stdout).
    const said = run.stderr || run.stdout
    if (run.timedOut)
      throw new ToolFailure(`the command did not finish within ${timeoutMs / 1000} s and was killed`, 'timeout', structured, RPC.INTERNAL_ERROR, said)
    if (run.code !== 0 && !run.truncated)
      throw new ToolFailure(`the command exited with ${run.code ?? run.signal}`, 'exit_status', structured, RPC.INTERNAL_ERROR, said)
    return { content: [{ type: 'text', text: run.stdout }], structuredContent: structured }
  } finally {
    await rm(cwd, { recursive: true, force: true })
  }
}
