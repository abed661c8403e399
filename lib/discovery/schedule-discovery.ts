// When discovery runs: for a new agent, unit (with an image) or server; when an image digest changes
// (rotation) or a server's address does; on demand; and periodically (the sweep job).
import 'server-only'
import { prisma } from '@/lib/db'
import { enqueueMany } from '@/lib/jobs/enqueue'
import { introspectImageJob, introspectMcpServerJob } from '@/lib/jobs/job-contracts'
import type { DiscoveryTrigger as Trigger } from '@/lib/jobs/discovery-triggers'
import { imageDigestOf } from '@/lib/manifests/specs/fleet'

export interface WrittenResource {
  kind: string
  id: string | null
  action: 'created' | 'updated' | 'unchanged'
  before: unknown
  after: unknown
}

export type DiscoveryJob = { job: 'image'; kind: 'Agent' | 'Unit'; id: string; trigger: Trigger } | { job: 'mcp'; id: string; trigger: Trigger }

/** The discoveries a set of writes calls for. Pure. */
export function discoveriesForWrites(writes: WrittenResource[]): DiscoveryJob[] {
  const jobs: DiscoveryJob[] = []
  for (const w of writes) {
    if (!w.id || w.action === 'unchanged') continue
    const after = w.after as { image?: string; endpoint?: string; port?: number; transport?: string }
    const before = w.before as typeof after | null
    if (w.kind === 'Agent' || w.kind === 'Unit') {
      if (w.kind === 'Unit' && !(after.image && after.endpoint)) continue
      if (w.action === 'created') jobs.push({ job: 'image', kind: w.kind, id: w.id, trigger: 'created' })
      else if (imageDigestOf(before?.image) !== imageDigestOf(after.image) || before?.image !== after.image)
        jobs.push({ job: 'image', kind: w.kind, id: w.id, trigger: 'rotation' })
      else if (before?.endpoint !== after.endpoint) jobs.push({ job: 'image', kind: w.kind, id: w.id, trigger: 'changed' })
    } else if (w.kind === 'LanguageTool') {
      const moved = ['image', 'endpoint', 'port', 'transport'].some(
        (f) => (before as Record<string, unknown> | null)?.[f] !== (after as Record<string, unknown>)[f],
      )
      if (w.action === 'created') jobs.push({ job: 'mcp', id: w.id, trigger: 'created' })
      else if (moved) jobs.push({ job: 'mcp', id: w.id, trigger: 'changed' })
    }
  }
  return jobs
}

export async function enqueueDiscoveries(jobs: DiscoveryJob[]): Promise<void> {
  try {
    await enqueueMany(
      introspectImageJob,
      jobs.flatMap((j) => (j.job === 'image' ? [{ kind: j.kind, id: j.id, trigger: j.trigger }] : [])),
    )
    await enqueueMany(
      introspectMcpServerJob,
      jobs.flatMap((j) => (j.job === 'mcp' ? [{ id: j.id, trigger: j.trigger }] : [])),
    )
  } catch (e) {
    // The write is committed; the periodic sweep will discover it if the queue is unreachable now.
    console.error(`[discovery] could not queue ${jobs.length} discoveries: ${(e as Error).message}`)
  }
}

export async function enqueueDiscoveryOfEverything(trigger: Trigger): Promise<number> {
  const [agents, units, servers] = await Promise.all([
    prisma.agent.findMany({ select: { id: true } }),
    prisma.unit.findMany({ select: { id: true, spec: true } }),
    prisma.languageTool.findMany({ select: { id: true } }),
  ])
  const jobs: DiscoveryJob[] = [
    ...agents.map((a) => ({ job: 'image' as const, kind: 'Agent' as const, id: a.id, trigger })),
    ...units
      .filter((u) => (u.spec as { image?: string; endpoint?: string }).image && (u.spec as { endpoint?: string }).endpoint)
      .map((u) => ({ job: 'image' as const, kind: 'Unit' as const, id: u.id, trigger })),
    ...servers.map((s) => ({ job: 'mcp' as const, id: s.id, trigger })),
  ]
  await enqueueDiscoveries(jobs)
  return jobs.length
}
