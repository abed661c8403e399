// Secret values never reach a log line: every plain value this process seals or opens is noted here
// (with its base64 forms), and everything written to stdout and stderr, and every error message the
// API returns, passes through maskSecretValues. The state lives on globalThis because bundlers can
// load this module more than once (Next's instrumentation hook and the route bundles).
import 'server-only'

export const SECRET_MASK = '[secret]'

/** Shorter values are not masked: they cannot be told apart from ordinary words and numbers. */
export const MIN_MASKED_LENGTH = 6
const MAX_REMEMBERED = 20_000

interface MaskState {
  values: Set<string>
  pattern: RegExp | null
  installed: boolean
}

const STATE_KEY = Symbol.for('toolroom.secretMask')
const globals = globalThis as unknown as Record<symbol, MaskState | undefined>
const state: MaskState = (globals[STATE_KEY] ??= { values: new Set(), pattern: null, installed: false })

function formsOf(value: string): string[] {
  const b64 = Buffer.from(value, 'utf8').toString('base64')
  return [value, b64, b64.replace(/=+$/, ''), Buffer.from(value, 'utf8').toString('base64url'), JSON.stringify(value).slice(1, -1)]
}

export function noteSecretValues(values: Iterable<string>): void {
  for (const value of values) {
    if (typeof value !== 'string' || value.length < MIN_MASKED_LENGTH) continue
    for (const form of formsOf(value)) {
      if (form.length < MIN_MASKED_LENGTH || state.values.has(form)) continue
      if (state.values.size >= MAX_REMEMBERED) state.values.delete(state.values.values().next().value as string)
      state.values.add(form)
      state.pattern = null
    }
  }
}

export function maskSecretValues(text: string): string {
  if (state.values.size === 0 || !text) return text
  state.pattern ??= new RegExp(
    [...state.values]
      .sort((a, b) => b.length - a.length)
      .map((v) => v.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('|'),
    'g',
  )
  return text.replace(state.pattern, SECRET_MASK)
}

type Write = typeof process.stdout.write

function maskingWrite(original: Write, stream: NodeJS.WriteStream): Write {
  return function write(this: unknown, chunk: unknown, ...rest: unknown[]) {
    if (state.values.size > 0) {
      if (typeof chunk === 'string') chunk = maskSecretValues(chunk)
      else if (chunk instanceof Uint8Array) {
        const text = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength).toString('utf8')
        const masked = maskSecretValues(text)
        if (masked !== text) chunk = masked
      }
    }
    return (original as (...args: unknown[]) => boolean).call(stream, chunk, ...rest)
  } as Write
}

/** Masks every write to stdout and stderr of this process (console.* included). Idempotent. */
export function installLogMasking(): void {
  if (state.installed) return
  state.installed = true
  process.stdout.write = maskingWrite(process.stdout.write, process.stdout)
  process.stderr.write = maskingWrite(process.stderr.write, process.stderr)
}
