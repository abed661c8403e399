import { describe, expect, it } from 'vitest'
import { addRefusals, boundedProviderError, keysStatus, MAX_ERROR_LENGTH, type RefusalReason } from '@/lib/identity/identity-provider-conditions'

const at = (iso: string) => new Date(iso)

describe("an IdentityProvider's KeysAvailable condition", () => {
  it('is True with the key count once its keys are fetched, False with the reason and error when they cannot be', () => {
    expect(keysStatus({ fetched: true, keyCount: 2 }, [], at('2026-11-27T10:00:00Z'))).toEqual({
      phase: 'Ready',
      conditions: [
        {
          type: 'KeysAvailable',
          status: 'True',
          reason: 'KeysFetched',
          message: 'its key set (JWKS) was fetched and holds 2 keys',
          lastTransitionTime: '2026-11-27T10:00:00.000Z',
        },
      ],
    })
    const down = keysStatus({ fetched: false, failure: 'timeout', error: 'did not answer within 5000 ms' }, [], at('2026-11-27T10:00:00Z'))
    expect(down.phase).toBe('Failed')
    expect(down.conditions[0]).toMatchObject({ status: 'False', reason: 'ProviderTimedOut', message: expect.stringContaining('did not answer within 5000 ms') })
  })

  it('keeps its transition time while the status holds, and moves it when the status changes', () => {
    const first = keysStatus({ fetched: false, failure: 'unreachable', error: 'ECONNREFUSED' }, [], at('2026-11-27T10:00:00Z')).conditions
    const again = keysStatus({ fetched: false, failure: 'invalid_key_set', error: 'not a key set' }, first, at('2026-11-27T10:05:00Z')).conditions
    expect(again[0]).toMatchObject({ reason: 'InvalidKeySet', lastTransitionTime: '2026-11-27T10:00:00.000Z' })
    const back = keysStatus({ fetched: true, keyCount: 1 }, again, at('2026-11-27T10:06:00Z')).conditions
    expect(back[0]).toMatchObject({ status: 'True', message: expect.stringMatching(/holds 1 key$/), lastTransitionTime: '2026-11-27T10:06:00.000Z' })
    // Whatever the row held before (a hand-written UPDATE, another version's shape) starts afresh.
    expect(keysStatus({ fetched: true, keyCount: 1 }, 'nonsense', at('2026-11-27T10:07:00Z')).conditions[0].lastTransitionTime).toBe('2026-11-27T10:07:00.000Z')
  })
})

describe("a provider's error as stored", () => {
  it('shows addresses without user info, query or fragment', () => {
    const error = boundedProviderError('https://ops:hunter2@idp.example/keys?key=s3cret#x answered HTTP 500; see http://idp.example:8443: ECONNRESET.')
    expect(error).toBe('https://idp.example/keys answered HTTP 500; see http://idp.example:8443: ECONNRESET.')
    expect(error).not.toMatch(/hunter2|s3cret/)
  })

  it('is one line, and bounded', () => {
    expect(boundedProviderError('line one\n\n  line two\t ')).toBe('line one line two')
    const long = boundedProviderError(`<html>${'x'.repeat(5000)}</html>`)
    expect(long).toHaveLength(MAX_ERROR_LENGTH)
    expect(long.endsWith('…')).toBe(true)
  })
})

describe('refusal counts', () => {
  const counted = (entries: [RefusalReason, number, string][]) => new Map(entries.map(([reason, count, iso]) => [reason, { count, lastAt: at(iso) }]))

  it('add what a process counted to what the row holds, keeping the latest time', () => {
    const stored = { audience: { count: 3, lastAt: '2026-11-27T09:00:00.000Z' }, expired: { count: 1, lastAt: '2026-11-27T11:00:00.000Z' } }
    expect(
      addRefusals(
        stored,
        counted([
          ['audience', 2, '2026-11-27T10:00:00Z'],
          ['expired', 1, '2026-11-27T10:30:00Z'],
          ['replay', 1, '2026-11-27T10:00:00Z'],
        ]),
      ),
    ).toEqual({
      audience: { count: 5, lastAt: '2026-11-27T10:00:00.000Z' },
      expired: { count: 2, lastAt: '2026-11-27T11:00:00.000Z' },
      replay: { count: 1, lastAt: '2026-11-27T10:00:00.000Z' },
    })
  })

  it('count from zero over a stored value of another shape, and keep no reason they do not know', () => {
    expect(addRefusals({ audience: { count: 'many' }, bogus: { count: 9, lastAt: 'x' } }, counted([['audience', 1, '2026-11-27T10:00:00Z']]))).toEqual({
      audience: { count: 1, lastAt: '2026-11-27T10:00:00.000Z' },
    })
    expect(addRefusals(null, new Map())).toEqual({})
  })
})
