// The effective-tools answer cache (lib/effective-tools/answer-cache.ts): the same answer asked again
// while it is computed shares the computation, but only one begun at the same registry epoch, whose
// reads came after every change the new ask must see; and a watch's ask, which needs the answer's
// fingerprint from the same reads as its body, never takes one computed or cached without it.
import { beforeAll, describe, expect, it } from 'vitest'
import { cachedAnswer, type Computed } from '@/lib/effective-tools/answer-cache'
import { noteRegistryChange, registryEpoch } from '@/lib/registry/registry-changes'
import { until } from '../support/until'
import { resetDatabase } from './helpers'

beforeAll(async () => {
  await resetDatabase()
  await until('the registry change listener', () => registryEpoch() !== null)
})

/** A computation that finishes when told, counting how many times it began. */
function heldComputation(fingerprint?: string) {
  let begun = 0
  let finish!: () => void
  const released = new Promise<void>((resolve) => (finish = resolve))
  const compute = async (): Promise<Computed> => {
    const n = ++begun
    await released
    return { body: Buffer.from(`answer ${n}`), dependsOn: new Set(), ...(fingerprint ? { fingerprint: `${fingerprint} ${n}` } : {}) }
  }
  return { compute, finish, begun: () => begun }
}

let keys = 0
const freshKey = () => `answer-cache-test:${process.pid}:${++keys}`

describe('the answer cache', () => {
  it('computes an answer asked twice at once only once, and keeps it', async () => {
    const key = freshKey()
    const held = heldComputation()
    const first = cachedAnswer(key, held.compute)
    const second = cachedAnswer(key, held.compute)
    held.finish()
    const [a, b] = await Promise.all([first, second])
    expect(held.begun()).toBe(1)
    expect(b.body).toBe(a.body)
    expect((await cachedAnswer(key, held.compute)).body.toString()).toBe('answer 1')
    expect(held.begun()).toBe(1)
  })

  it('does not share a computation begun before a registry change with an ask made after it', async () => {
    const key = freshKey()
    const held = heldComputation()
    const before = cachedAnswer(key, held.compute)
    noteRegistryChange()
    const after = cachedAnswer(key, held.compute)
    held.finish()
    expect((await before).body.toString()).toBe('answer 1')
    expect((await after).body.toString()).toBe('answer 2')
    expect(held.begun()).toBe(2)
  })

  it('gives an ask that needs the fingerprint neither a computation nor a cached answer without one', async () => {
    const key = freshKey()
    const plain = heldComputation()
    const fingerprinted = heldComputation('fingerprint')
    const get = cachedAnswer(key, plain.compute)
    const watched = cachedAnswer(key, fingerprinted.compute, '', true)
    plain.finish()
    fingerprinted.finish()
    expect((await get).fingerprint).toBeUndefined()
    expect(await watched).toMatchObject({ fingerprint: 'fingerprint 1' })

    const other = freshKey()
    const cachedByGet = heldComputation()
    cachedByGet.finish()
    await cachedAnswer(other, cachedByGet.compute)
    const later = heldComputation('later')
    later.finish()
    expect(await cachedAnswer(other, later.compute, '', true)).toMatchObject({ fingerprint: 'later 1' })
    expect(later.begun()).toBe(1)
    // What the watch computed serves plain asks too.
    expect((await cachedAnswer(other, cachedByGet.compute)).fingerprint).toBe('later 1')
    expect(cachedByGet.begun()).toBe(1)
  })

  it('lets a plain ask share a computation made with the fingerprint', async () => {
    const key = freshKey()
    const fingerprinted = heldComputation('fingerprint')
    const plain = heldComputation()
    const watched = cachedAnswer(key, fingerprinted.compute, '', true)
    const get = cachedAnswer(key, plain.compute)
    fingerprinted.finish()
    plain.finish()
    expect((await get).body).toBe((await watched).body)
    expect(plain.begun()).toBe(0)
  })
})
