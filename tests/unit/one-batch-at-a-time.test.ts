// The gateway's group commit (lib/gateway/one-batch-at-a-time.ts): the first item goes alone, those
// added while a batch runs go together next, in order, at most maxBatch at a time; each caller gets
// its own item's result, and a failed batch fails its own items only.
import { describe, expect, it } from 'vitest'
import { oneBatchAtATime } from '@/lib/gateway/one-batch-at-a-time'

/** A run whose batches finish only when the test says so. */
function heldRun() {
  const batches: Array<{ items: number[]; finish: (results?: string[]) => void; fail: (e: Error) => void }> = []
  const run = (items: number[]) =>
    new Promise<string[]>((resolve, reject) => batches.push({ items, finish: (results) => resolve(results ?? items.map((i) => `r${i}`)), fail: reject }))
  return { batches, run }
}
const settle = () => new Promise((r) => setImmediate(r))

describe('one batch at a time', () => {
  it('sends the first item alone and the items added meanwhile together, in order, each answered with its own result', async () => {
    const { batches, run } = heldRun()
    const add = oneBatchAtATime(run, 3)
    const answers = [1, 2, 3, 4, 5, 6].map((i) => add(i))
    await settle()
    expect(batches.map((b) => b.items)).toEqual([[1]])
    batches[0].finish()
    await settle()
    expect(batches.map((b) => b.items)).toEqual([[1], [2, 3, 4]])
    batches[1].finish()
    await settle()
    batches[2].finish()
    expect(await Promise.all(answers)).toEqual(['r1', 'r2', 'r3', 'r4', 'r5', 'r6'])
    expect(batches.map((b) => b.items)).toEqual([[1], [2, 3, 4], [5, 6]])
  })

  it('fails the items of a failed batch only, and goes on with the next', async () => {
    const { batches, run } = heldRun()
    const add = oneBatchAtATime(run, 10)
    const first = add(1)
    const later = [add(2), add(3)]
    await settle()
    batches[0].fail(new Error('connection lost'))
    await expect(first).rejects.toThrow('connection lost')
    await settle()
    batches[1].finish()
    expect(await Promise.all(later)).toEqual(['r2', 'r3'])
  })

  it('fails a batch whose results do not match its items one to one', async () => {
    const { batches, run } = heldRun()
    const add = oneBatchAtATime(run, 10)
    const answers = [add(1), add(2)].map((p) => p.catch((e: Error) => e.message))
    await settle()
    batches[0].finish()
    await settle()
    batches[1].finish(['r2', 'one too many'])
    expect(await Promise.all(answers)).toEqual(['r1', 'a batch of 1 answered 2 results'])
  })
})
