// The unit files run in one module graph per worker (vitest.config.mts, `isolate: false`): a file that
// mocked a module, changed the environment or the working directory, or left fake timers running
// would change what the files after it see, depending on the order they happen to run in.
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

const UNIT = path.resolve('tests/unit')
const files = fs.readdirSync(UNIT).filter((f) => f.endsWith('.ts'))

const LEAKS: Array<[RegExp, string]> = [
  [/\bvi\.(do)?mock\(/, 'mocks a module'],
  [/\bvi\.stub(Env|Global)\(/, 'stubs the environment or a global'],
  [/process\.env(\.\w+|\[[^\]]+\])\s*=[^=]/, 'assigns to process.env'],
  [/delete\s+process\.env/, 'deletes from process.env'],
  [/process\.chdir\(/, 'changes the working directory'],
]

describe('unit files', () => {
  it.each(files)('%s leaves nothing behind for the files after it', (file) => {
    const text = fs.readFileSync(path.join(UNIT, file), 'utf8')
    const leaks = LEAKS.filter(([pattern]) => pattern.test(text)).map(([, what]) => what)
    if (/\bvi\.useFakeTimers\(/.test(text) && !/\bvi\.useRealTimers\(/.test(text)) leaks.push('leaves fake timers on')
    expect(leaks, `${file} shares its worker's modules with other files (vitest.config.mts): run it in a project of its own, or undo what it changes`).toEqual(
      [],
    )
  })
})
