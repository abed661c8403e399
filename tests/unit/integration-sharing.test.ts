// The integration files a worker runs share its process (vitest.config.mts, `isolate: false`).
// tests/integration/setup.ts gives each file a fresh start: it puts the environment back, closes what
// our modules hold open, forgets our state on globalThis by its names and has our modules evaluated
// again. What it cannot undo, a file must not do; and state of ours on globalThis must carry a name
// the setup knows, or it would reach the next file (docs/design/testing.md, "Integration files share a process").
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

const INTEGRATION = path.resolve('tests/integration')
const files = fs.readdirSync(INTEGRATION).filter((f) => f.endsWith('.ts') && f !== 'setup.ts')

const LEAKS: Array<[RegExp, string]> = [
  [/\bvi\.(do)?mock\(/, 'mocks a module (the mock would stay for the files after it)'],
  [/\bvi\.stub(Env|Global)\(/, 'stubs the environment or a global'],
  [/process\.chdir\(/, 'changes the working directory'],
  [/\bprocess\.(on|once|addListener|prependListener)\(/, 'adds a listener to the process'],
  [/\bsetGlobalDispatcher\(/, "replaces undici's global dispatcher"],
  [/\bglobalThis\.\w+\s*=[^=]/, 'assigns a global'],
]

describe('integration files', () => {
  it.each(files)('%s leaves nothing behind that the setup cannot undo', (file) => {
    const text = fs.readFileSync(path.join(INTEGRATION, file), 'utf8')
    const leaks = LEAKS.filter(([pattern]) => pattern.test(text)).map(([, what]) => what)
    if (/\bvi\.useFakeTimers\(/.test(text) && !/\bvi\.useRealTimers\(/.test(text)) leaks.push('leaves fake timers on')
    if (/\bvi\.spyOn\(/.test(text) && !/\.mockRestore\(\)|vi\.restoreAllMocks\(\)/.test(text)) leaks.push('leaves a spy in place')
    expect(leaks, `${file} shares its worker's process with other files (vitest.config.mts): undo what it changes`).toEqual([])
  })
})

// The names tests/integration/setup.ts forgets between files (its OUR_GLOBAL, and symbols described `toolroom.…`).
const FORGOTTEN_NAME = /^(__toolroom\w+|prisma|toolroomAuth)$/

function sources(dir: string, into: string[] = []): string[] {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name)
    if (entry.isDirectory()) {
      if (entry.name !== 'generated') sources(file, into)
    } else if (/\.tsx?$/.test(entry.name)) into.push(file)
  }
  return into
}

/** What a module keeps on globalThis that the setup would not forget. */
function unforgotten(text: string): string[] {
  const found: string[] = []
  for (const line of text.split('\n')) {
    if (!/\bglobalThis\b/.test(line) || /^\s*(\/\/|\*)/.test(line)) continue
    const named = /globalThis as (?:unknown as )?\{\s*(\w+)\?:/.exec(line)
    if (named) {
      if (!FORGOTTEN_NAME.test(named[1])) found.push(named[1])
    } else if (!/globalThis as unknown as Record<symbol,/.test(line)) found.push(line.trim())
  }
  for (const [, description] of text.matchAll(/Symbol\.for\('([^']*)'\)/g)) if (!description.startsWith('toolroom.')) found.push(`Symbol.for('${description}')`)
  return found
}

describe('state of ours on globalThis', () => {
  const holders = sources(path.resolve('lib')).filter((file) => /\bglobalThis\b/.test(fs.readFileSync(file, 'utf8')))

  it('is kept by some modules (else this check would check nothing)', () => {
    expect(holders.length).toBeGreaterThan(10)
  })

  it.each(holders.map((file) => path.relative(process.cwd(), file)))('%s keeps it under a name the integration setup forgets', (file) => {
    expect(unforgotten(fs.readFileSync(file, 'utf8'))).toEqual([])
  })

  it('is recognised when it is not (the check itself)', () => {
    expect(unforgotten('const s = (globalThis as { __toolroomX?: number }).__toolroomX ??= 1')).toEqual([])
    expect(unforgotten('const s = (globalThis as { cacheOfX?: number }).cacheOfX ??= 1')).toEqual(['cacheOfX'])
    expect(unforgotten("const STATE = Symbol.for('other.state')")).toEqual(["Symbol.for('other.state')"])
    expect(unforgotten('globalThis.cache = new Map()')).toEqual(['globalThis.cache = new Map()'])
  })
})
