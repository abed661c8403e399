// A discovery run left `running` by a worker that stopped (and handed its job back) or died is closed
// as failed, saying so, when the subject's next run starts: the run history never shows a run that is
// running forever.
import { randomUUID } from 'node:crypto'
import { beforeAll, describe, expect, it } from 'vitest'
import { prisma } from '@/lib/db'
import { runMcpDiscovery } from '@/lib/discovery/run-mcp-discovery'
import { reloadConfig } from '@/lib/config'
import { applyManifest, resetDatabase, yaml } from './helpers'

// The run under test fails because nothing listens on its endpoint: a readiness window of a second
// instead of the default 15 s, which the file waited out whole and which has nothing to do with
// closing the abandoned run.
process.env.TOOLROOM_DISCOVERY_READINESS_SECONDS = '1'
reloadConfig()

let serverId: string

beforeAll(async () => {
  await resetDatabase()
  await applyManifest(yaml`
apiVersion: toolroom.dev/v1alpha1
kind: LanguageTool
metadata: { name: nowhere, namespace: abandoned }
spec: { endpoint: "http://127.0.0.1:9/mcp" }
`)
  serverId = (await prisma.languageTool.findFirstOrThrow({ where: { namespace: 'abandoned', name: 'nowhere' } })).id
})

describe('abandoned discovery runs', () => {
  it("closes the subject's run left running when its next run starts, and no other subject's", async () => {
    const left = randomUUID()
    const otherSubject = randomUUID()
    const other = randomUUID()
    for (const [id, subjectId] of [
      [left, serverId],
      [other, otherSubject],
    ])
      await prisma.$executeRaw`
        INSERT INTO "DiscoveryRun" (id, "subjectKind", "subjectId", namespace, name, trigger, status, attempt)
        VALUES (${id}::uuid, 'LanguageTool', ${subjectId}::uuid, 'abandoned', 'nowhere', 'manual', 'running', 1)`
    const result = await runMcpDiscovery({ id: serverId, trigger: 'manual' })
    expect(result.status).toBe('failed')
    const runs = await prisma.discoveryRun.findMany({ where: { subjectId: serverId }, orderBy: { startedAt: 'asc' } })
    expect(runs.map((r) => r.status)).toEqual(['failed', 'failed'])
    expect(runs[0]).toMatchObject({ id: left, error: 'abandoned: the worker stopped before this run finished; the next run replaced it' })
    expect(runs[0].finishedAt).not.toBeNull()
    expect(runs[1].error).not.toMatch(/abandoned/)
    expect((await prisma.discoveryRun.findUniqueOrThrow({ where: { id: other } })).status).toBe('running')
  })
})
