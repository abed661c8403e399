// npm start's check before it loads the Prisma client (scripts/steps/data-settled.ts): it may say
// "nothing to write" only when the writers themselves (ensureEnvAdminToken, the demo seed) would
// write nothing, whatever the stored tokens, people and fleet are.
import fc from 'fast-check'
import { afterAll, describe, expect, it } from 'vitest'
import { reloadConfig } from '@/lib/config'
import { prisma } from '@/lib/db'
import { demoSkipReasonNow } from '@/lib/seed/demo-present'
import { hashToken } from '@/lib/auth/secret-token'
import { ensureEnvAdminToken } from '@/lib/tokens/ensure-env-admin-token'
import { dataSettled } from '@/scripts/steps/data-settled'
import { ensureUser } from './access-fixtures'
import { resetDatabase } from './helpers'

const VALUES = ['trk_' + 'a1'.repeat(20), 'trk_' + 'b2'.repeat(20), undefined] as const

function withAdminToken(value: string | undefined) {
  if (value === undefined) delete process.env.TOOLROOM_ADMIN_TOKEN
  else process.env.TOOLROOM_ADMIN_TOKEN = value
  reloadConfig()
}

const settledNow = (demo: boolean) => dataSettled({ databaseUrl: process.env.DATABASE_URL!, demo })

async function emptyDatabase() {
  await resetDatabase()
  await prisma.$executeRawUnsafe(`TRUNCATE "User", "ApiToken" CASCADE`)
}

afterAll(() => withAdminToken(undefined))

describe('npm start: is there anything to write', () => {
  it('says nothing is to be written only when the admin token writer would write nothing', async () => {
    await emptyDatabase()
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.oneof(
            fc.record({ op: fc.constant('ensure' as const), value: fc.constantFrom(...VALUES) }),
            // A second unrevoked token of the variable's origin: never made by the writer, but the check
            // must not take one of two for the one.
            fc.record({ op: fc.constant('stray' as const), value: fc.constantFrom(VALUES[0], VALUES[1]) }),
          ),
          { maxLength: 6 },
        ),
        fc.constantFrom(...VALUES),
        async (ops, value) => {
          await prisma.apiToken.deleteMany({})
          for (const step of ops) {
            if (step.op === 'ensure') await ensureEnvAdminToken(step.value)
            else
              await prisma.apiToken.upsert({
                where: { hash: hashToken(step.value + 'x') },
                create: { name: 'stray', hash: hashToken(step.value + 'x'), hint: 'trk_stray', scopes: ['admin'], origin: 'env' },
                update: { revokedAt: null },
              })
          }
          const strays = await prisma.apiToken.count({ where: { name: 'stray', revokedAt: null } })
          withAdminToken(value)
          const settled = await settledNow(false)
          const outcome = await ensureEnvAdminToken(value)
          if (settled) expect(['unchanged', 'none']).toContain(outcome)
          // Without a stray row the check is exact: what it leaves to the writer, the writer changes.
          if (strays === 0 && !settled) expect(['created', 'replaced', 'revoked']).toContain(outcome)
        },
      ),
      { numRuns: 60 },
    )
  })

  it('revokes every live token of the variable but the one it names, whichever the database finds first', async () => {
    await emptyDatabase()
    // Two live tokens of the variable's origin (a row written by hand, a restore): the old value must
    // not stay an admin token because the row found first was the current one.
    for (const value of [VALUES[0], VALUES[1]])
      await prisma.apiToken.create({ data: { name: 'TOOLROOM_ADMIN_TOKEN', hash: hashToken(value!), hint: 'trk_', scopes: ['admin'], origin: 'env' } })
    expect(await ensureEnvAdminToken(VALUES[0])).toBe('replaced')
    const live = await prisma.apiToken.findMany({ where: { origin: 'env', revokedAt: null }, select: { hash: true } })
    expect(live).toEqual([{ hash: hashToken(VALUES[0]) }])
    expect(await ensureEnvAdminToken(VALUES[0])).toBe('unchanged')
  })

  it('leaves the demo to the seed unless there are people and a fleet, and tells why as the seed does', async () => {
    await emptyDatabase()
    withAdminToken(undefined)
    expect(await settledNow(false)).toEqual({ demoSkipped: null })
    expect(await settledNow(true)).toBeNull()

    await ensureUser('viewer', 'data-settled')
    expect(await settledNow(true), 'people but no fleet: the fleet is to be seeded').toBeNull()
    expect(await demoSkipReasonNow()).toBeNull()

    await prisma.agent.create({ data: { apiVersion: 'toolroom.dev/v1', namespace: 'default', name: 'a1', spec: {} } })
    const reason = await demoSkipReasonNow()
    expect(reason).toBe('the database already has 1 agent(s) and 0 tool(s)')
    expect(await settledNow(true)).toEqual({ demoSkipped: reason })

    await prisma.user.deleteMany({})
    expect(await settledNow(true), 'a fleet but no people: the demo people are to be made').toBeNull()
    expect(await demoSkipReasonNow()).toBeNull()
  })

  it('says nothing when it cannot ask (the full steps then decide)', async () => {
    expect(await dataSettled({ databaseUrl: 'postgresql://nobody:wrong@127.0.0.1:1/none', demo: true })).toBeNull()
  })
})
