// Logs: one pino logger per process. JSON lines (level, time, role, message, and the request id, call
// id, job and trace id of the work at hand) when LOG_FORMAT=json or stdout is not a terminal, which is
// how containers and log collectors run it; plain `[role] message` lines in a terminal (LOG_FORMAT=text
// forces them). Everything goes through process.stdout.write, so the masking of secret values
// (lib/secrets/mask-secret-values.ts) applies to every line; in JSON mode console.* is routed here too,
// so a stray console.log from a library is still one JSON line.
import 'server-only'
import { AsyncLocalStorage } from 'node:async_hooks'
import { format } from 'node:util'
import pino from 'pino'
import { type Config, config } from '@/lib/config'
import { activeTraceIds } from './tracing'

export type LogRole = 'web' | 'gateway' | 'worker' | 'script'

/** What a log line carries about the work in progress. */
export interface LogContext {
  requestId?: string
  callId?: string
  job?: string
  jobId?: string
}

interface LoggerState {
  role: LogRole
  root: pino.Logger | null
  consoleBridged: boolean
  context: AsyncLocalStorage<LogContext>
}

const STATE = Symbol.for('toolroom.logger')
const globals = globalThis as unknown as Record<symbol, LoggerState | undefined>
const state: LoggerState = (globals[STATE] ??= { role: 'script', root: null, consoleBridged: false, context: new AsyncLocalStorage() })

/** JSON lines, unless asked for text or writing to a terminal. */
export function jsonLogs(from: Pick<Config, 'LOG_FORMAT'> = config(), stdoutIsTTY = Boolean(process.stdout.isTTY)): boolean {
  if (from.LOG_FORMAT === undefined) return !stdoutIsTTY
  return from.LOG_FORMAT === 'json'
}

function createRoot(): pino.Logger {
  const json = jsonLogs()
  const options: pino.LoggerOptions = {
    level: config().LOG_LEVEL,
    base: { role: state.role },
    messageKey: 'msg',
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    mixin() {
      const ctx = state.context.getStore()
      const trace = activeTraceIds()
      if (!ctx && !trace) return {}
      return { ...ctx, ...(trace ? { traceId: trace.traceId, spanId: trace.spanId } : {}) }
    },
  }
  // Written with process.stdout.write (not pino's own fd writer), so the secret masking sees every line.
  const destination = json ? { write: (line: string) => void process.stdout.write(line) } : { write: (line: string) => void process.stdout.write(toText(line)) }
  return pino(options, destination)
}

/** A terminal line: `[role] message key=value…` (errors on stderr, as console.error wrote them). */
function toText(line: string): string {
  const { level, time: _time, role, msg, pid: _pid, hostname: _host, err, ...rest } = JSON.parse(line) as Record<string, unknown>
  const extra = Object.entries(rest).map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`)
  const stack = err && typeof err === 'object' && 'stack' in err ? `\n${(err as { stack: string }).stack}` : ''
  const text = `[${role}] ${msg ?? ''}${extra.length ? ` (${extra.join(' ')})` : ''}${stack}\n`
  if (level === 'error' || level === 'fatal' || level === 'warn') {
    process.stderr.write(text)
    return ''
  }
  return text
}

/** Names this process in every log line (and in the metrics' role label, set separately). Call before logging. */
export function setLogRole(role: LogRole): void {
  if (state.role === role && state.root) return
  state.role = role
  state.root = null
}

export function logger(): pino.Logger {
  state.root ??= createRoot()
  return state.root
}

/**
 * Runs `fn` with `context` added to every line logged inside it (nested contexts add up). It uses
 * AsyncLocalStorage, which on Node.js 20 makes every promise of the process slower from its first use
 * on (measured: ~2.5× the CPU of a chain of awaits): REST requests (Next.js uses it anyway) and jobs
 * get a context; the gateway's call path does not, and names the call in what it logs itself.
 */
export function withLogContext<T>(context: LogContext, fn: () => T): T {
  const outer = state.context.getStore()
  return state.context.run(outer ? { ...outer, ...context } : context, fn)
}

/**
 * In JSON mode, console.log/info/warn/error/debug become log lines of the matching level, so every
 * line a process writes is JSON (Next.js's own messages and libraries' included). Idempotent.
 */
export function bridgeConsoleToLogger(): void {
  if (state.consoleBridged || !jsonLogs()) return
  state.consoleBridged = true
  const log = logger()
  const route =
    (level: 'info' | 'warn' | 'error' | 'debug') =>
    (...args: unknown[]) => {
      const error = args.find((a): a is Error => a instanceof Error)
      const message = format(...args)
      if (error) log[level]({ err: error }, message)
      else log[level](message)
    }
  console.log = route('info')
  console.info = route('info')
  console.warn = route('warn')
  console.error = route('error')
  console.debug = route('debug')
}
