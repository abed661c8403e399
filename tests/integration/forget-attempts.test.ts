// The failed-attempt limits keep a row per client and address (lib/auth/failed-attempts.ts); rows
// whose window closed are deleted by the worker, so bogus client ids leave nothing behind, while
// open windows (and so the limits) are untouched.
import { describe, expect, it } from 'vitest'
import { clientAttemptSubject, countAttempt, forgetExpiredAttempts } from '@/lib/auth/failed-attempts'
import { authSettings } from '@/lib/auth/auth-settings'
import { prisma } from '@/lib/db'

const rowsOf = (clientId: string) => prisma.rateLimit.count({ where: { key: { contains: clientId } } })

describe('forgetting closed windows', () => {
  it('deletes the windows that closed and keeps the open ones', async () => {
    const bogus = clientAttemptSubject('bogus-client-1', '198.51.100.7')
    const other = clientAttemptSubject('bogus-client-2', '198.51.100.8')
    for (let i = 0; i < 3; i++) await countAttempt('oauth-token', bogus)
    await countAttempt('oauth-token', other)
    const longestMs = Math.max(60, authSettings().signInWindowSeconds) * 1000

    // Now, every window is open: nothing goes.
    expect(await forgetExpiredAttempts()).toBe(0)
    expect(await rowsOf('bogus-client-1')).toBe(1)

    // Once the longest window has passed, both rows are of no use to any check.
    const later = Date.now() + longestMs + 1000
    await prisma.$executeRaw`UPDATE "RateLimit" SET "lastRequest" = "lastRequest" + ${longestMs + 1000} WHERE key LIKE '%bogus-client-2%'`
    expect(await forgetExpiredAttempts(later)).toBe(1)
    expect(await rowsOf('bogus-client-1')).toBe(0)
    expect(await rowsOf('bogus-client-2')).toBe(1)
    // A client whose row went starts over, as it would with an expired window.
    expect(await countAttempt('oauth-token', bogus)).toEqual({ allowed: true, retryAfterSeconds: 0 })
  })
})
