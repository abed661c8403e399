// Reads batched while one is in flight (lib/effective-tools/batched-loads.ts): a lone read goes out at
// once, the reads asked meanwhile go out together, each gets its own value, a failed batch fails
// only its own keys, and no batch is larger than its bound.
import { describe, expect, it } from 'vitest'
import { batchedLoads } from '@/lib/effective-tools/batched-loads'

function recorder(fail?: (keys: string[]) => boolean) {
  const batches: string[][] = []
  const release: (() => void)[] = []
  const load = batchedLoads<string, string>(
    (keys) =>
      new Promise((resolve, reject) => {
        batches.push(keys)
        release.push(() => (fail?.(keys) ? reject(new Error(`failed: ${keys.join(',')}`)) : resolve(keys.map((k) => k.toUpperCase()))))
      }),
    3,
  )
  return { load, batches, release }
}

const turn = () => new Promise((r) => setImmediate(r))

describe('batched loads', () => {
  it('sends a lone read at once and the reads asked while it is in flight together, each with its own value', async () => {
    const { load, batches, release } = recorder()
    const first = load('a')
    await turn()
    expect(batches).toEqual([['a']])
    const later = [load('b'), load('c')]
    await turn()
    expect(batches).toHaveLength(1)
    release[0]()
    expect(await first).toBe('A')
    await turn()
    expect(batches).toEqual([['a'], ['b', 'c']])
    release[1]()
    expect(await Promise.all(later)).toEqual(['B', 'C'])
  })

  it('puts the reads of one turn in one batch, at most the bound in each', async () => {
    const { load, batches, release } = recorder()
    const all = ['a', 'b', 'c', 'd', 'e'].map(load)
    await turn()
    expect(batches).toEqual([['a', 'b', 'c']])
    release[0]()
    await turn()
    expect(batches).toEqual([
      ['a', 'b', 'c'],
      ['d', 'e'],
    ])
    release[1]()
    expect(await Promise.all(all)).toEqual(['A', 'B', 'C', 'D', 'E'])
  })

  it('fails the keys of a failed batch only, and goes on with the next', async () => {
    const { load, batches, release } = recorder((keys) => keys.includes('bad'))
    const first = load('bad')
    await turn()
    const next = load('good')
    release[0]()
    await expect(first).rejects.toThrow('failed: bad')
    await turn()
    expect(batches).toEqual([['bad'], ['good']])
    release[1]()
    expect(await next).toBe('GOOD')
  })
})
