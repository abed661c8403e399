// The change feed (lib/registry/change-feed.ts) after a change: each watched subject's fingerprint is
// worked out again, and only the watchers of subjects whose fingerprint moved are called, with it.
// Subjects are looked at together, not one after another: each look waits on the database as much
// as it computes (docs/design/resource-model.md#watch).
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { watchSubject } from '@/lib/registry/change-feed'
import { noteRegistryChange, registryEpoch } from '@/lib/registry/registry-changes'
import { until } from '../support/until'
import { resetDatabase } from './helpers'

const stops: Array<() => void> = []
const nextTurn = () => new Promise((resolve) => setImmediate(resolve))

beforeAll(async () => {
  await resetDatabase()
  await until('the registry change listener', () => registryEpoch() !== null)
})

afterEach(() => {
  for (const stop of stops.splice(0)) stop()
})

describe('the change feed', () => {
  it('calls the watchers of the subjects whose fingerprint moved, with the new one, and no others', async () => {
    const versions = new Map([
      ['feed:a', 'a1'],
      ['feed:b', 'b1'],
    ])
    const heard: Array<[string, string]> = []
    for (const key of versions.keys())
      stops.push(
        watchSubject(
          key,
          async () => ({ fingerprint: versions.get(key)!, dependsOn: null }),
          (fingerprint) => heard.push([key, fingerprint]),
        ),
      )
    // The first look (when a subject is first watched, its fingerprint at hand) sets what later looks compare with.
    await nextTurn()
    versions.set('feed:a', 'a2')
    noteRegistryChange()
    await until('the watcher of the subject that moved', () => heard.length > 0)
    expect(heard).toEqual([['feed:a', 'a2']])
  })

  it('looks at the subjects a change touched together, not one after another', async () => {
    // Each fingerprint (after the first look) finishes only once every subject's has begun: looked at
    // one after another, the first would wait for ever and no watcher would be called.
    const keys = ['feed:x', 'feed:y', 'feed:z']
    let round = 0
    const begun = new Set<string>()
    let everyoneBegun!: () => void
    const allBegun = new Promise<void>((resolve) => (everyoneBegun = resolve))
    const heard: string[] = []
    for (const key of keys)
      stops.push(
        watchSubject(
          key,
          async () => {
            if (round === 0) return { fingerprint: `${key}@0`, dependsOn: null }
            begun.add(key)
            if (begun.size === keys.length) everyoneBegun()
            await allBegun
            return { fingerprint: `${key}@1`, dependsOn: null }
          },
          () => heard.push(key),
        ),
      )
    await nextTurn()
    round = 1
    noteRegistryChange()
    await until('every watcher called', () => heard.length === keys.length)
    expect(heard.sort()).toEqual(keys)
  })
})
