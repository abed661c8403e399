// The answer cache's default size follows the memory the process may use (lib/effective-tools/answer-cache-size.ts).
import { describe, expect, it } from 'vitest'
import { defaultAnswerCacheMb, entryPiecesBudgetBytes, processMemoryLimitBytes } from '@/lib/effective-tools/answer-cache-size'

const MiB = 1024 * 1024

describe('the answer cache default', () => {
  it("takes a quarter of the limit, so the deploy/ web pod's 1 GiB holds it with room for the rest", () => {
    expect(defaultAnswerCacheMb(1024 * MiB)).toBe(256)
    expect(defaultAnswerCacheMb(768 * MiB)).toBe(192)
  })

  it('caps it at 2 GiB on a large machine, and caches nothing where a quarter is too small to be useful', () => {
    expect(defaultAnswerCacheMb(24 * 1024 * MiB)).toBe(2048)
    expect(defaultAnswerCacheMb(8 * 1024 * MiB)).toBe(2048)
    expect(defaultAnswerCacheMb(63 * MiB)).toBe(0)
    expect(defaultAnswerCacheMb(64 * MiB)).toBe(16)
  })

  it("reads this process's limit as a positive number no larger than the machine's memory", async () => {
    const os = await import('node:os')
    const limit = processMemoryLimitBytes()
    expect(limit).toBeGreaterThan(0)
    expect(limit).toBeLessThanOrEqual(os.totalmem())
  })
})

describe("the budget of the answers' shared serialized entries", () => {
  it('takes a sixteenth of the limit beside the answer cache, at most 256 MB', () => {
    expect(entryPiecesBudgetBytes(1024 * MiB)).toBe(64 * MiB)
    expect(entryPiecesBudgetBytes(24 * 1024 * MiB)).toBe(256 * MiB)
  })
})
