import { describe, expect, it } from 'vitest'
import { keyed } from '@/lib/effective-tools/registry-reader'

describe('batched registry reads', () => {
  it('a failed batch (the database went away) rejects the caller once and leaves no unhandled rejection behind', async () => {
    const unhandled: unknown[] = []
    const onUnhandled = (reason: unknown) => unhandled.push(reason)
    process.on('unhandledRejection', onUnhandled)
    try {
      const read = keyed<string>(async () => {
        throw new Error('terminating connection due to administrator command')
      })
      await expect(read(['ns/a', 'ns/b', 'ns/c'])).rejects.toThrow(/administrator command/)
      // Node reports unhandled rejections once the microtask queue has drained, before the event loop
      // moves on: by the next turn of the loop, any would have been reported.
      await new Promise((r) => setImmediate(r))
      expect(unhandled).toEqual([])
      // The failed refs are forgotten: the next read asks again.
      let asked: string[] = []
      const again = keyed<string>(async (refs) => {
        asked = refs
        return new Map(refs.map((r) => [r, r.toUpperCase()]))
      })
      expect(await again(['ns/a', 'ns/b'])).toEqual(
        new Map([
          ['ns/a', 'NS/A'],
          ['ns/b', 'NS/B'],
        ]),
      )
      expect(asked).toEqual(['ns/a', 'ns/b'])
    } finally {
      process.off('unhandledRejection', onUnhandled)
    }
  })
})
