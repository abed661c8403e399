// The web server's database client, loaded when npm start says it has printed ready
// (lib/health/warm-database-client.ts): only on that message, once, and without a channel not at all.
import { afterEach, describe, expect, it } from 'vitest'
import { warmDatabaseClientWhenTold } from '@/lib/health/warm-database-client'
import { WARM_DATABASE_CLIENT } from '@/scripts/web-warm-up.mjs'

const originalSend = process.send
afterEach(() => {
  process.send = originalSend
})

// Whether `promise` has settled once everything already queued has run.
const settledYet = (promise: Promise<unknown>) =>
  Promise.race([promise.then(() => true), new Promise<boolean>((resolve) => setImmediate(() => resolve(false)))])

describe('warmDatabaseClientWhenTold', () => {
  it('waits for the message, ignores any other, loads the client once told and stops listening', async () => {
    // Vitest's worker may have no IPC channel of its own: what matters is that the process has one.
    process.send ??= () => true
    const listenersBefore = process.listenerCount('message')
    const warmed = warmDatabaseClientWhenTold()
    expect(process.listenerCount('message')).toBe(listenersBefore + 1)

    process.emit('message', 'go', undefined)
    process.emit('message', { type: WARM_DATABASE_CLIENT }, undefined)
    expect(await settledYet(warmed)).toBe(false)

    process.emit('message', WARM_DATABASE_CLIENT, undefined)
    await warmed
    expect(process.listenerCount('message')).toBe(listenersBefore)
    // The client it loaded answers (the module is cached now: this is the same client).
    const { prisma } = await import('@/lib/db')
    expect(await prisma.$queryRawUnsafe<{ one: number }[]>('SELECT 1 AS one')).toEqual([{ one: 1 }])
  })

  it('listens for nothing in a process without a channel (a container, not npm start)', async () => {
    process.send = undefined
    const listenersBefore = process.listenerCount('message')
    await warmDatabaseClientWhenTold()
    expect(process.listenerCount('message')).toBe(listenersBefore)
  })
})
