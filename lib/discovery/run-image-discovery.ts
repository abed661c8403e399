// One image introspection of an agent or unit, recorded: the run, the refreshed cache of image tools
// (kept as it was when the run fails) and, when the surface moved, a change event with the diff.
import 'server-only'
import { config } from '@/lib/config'
import { prisma } from '@/lib/db'
import type { ImageToolDefinition } from '@/lib/effective-tools/catalog-tools'
import { agentEndpoint, type AgentSpec, imageDigestOf, type UnitSpec } from '@/lib/manifests/specs/fleet'
import { diffSurface, isEmptyDiff, newRefusals, summarizeDiff, type SurfaceTool } from './diff-surface'
import { introspectImage } from './introspect-image'
import { finishImageRun, readImageSubject, startImageRun } from './record-discovery-run'
import { discoveryFetch } from '@/lib/outbound/outbound-clients'
import { storableJson } from '@/lib/storage/storable-text'
import type { DiscoveryTrigger } from '@/lib/jobs/discovery-triggers'

// Reserved namespaces for validating entries, read at most every 30 s per worker: a connector made
// in between is still enforced where it matters, when effective tool sets are resolved.
let slugCache: { at: number; slugs: Promise<Set<string>> } | null = null
function connectorSlugs(): Promise<Set<string>> {
  if (!slugCache || Date.now() - slugCache.at > 30_000)
    slugCache = { at: Date.now(), slugs: prisma.connector.findMany({ select: { name: true } }).then((rows) => new Set(rows.map((c) => c.name))) }
  return slugCache.slugs
}

export interface ImageDiscoveryRequest {
  kind: 'Agent' | 'Unit'
  id: string
  trigger: DiscoveryTrigger
  attempt?: number
}

/** Where the subject's image listens: an agent's A2A endpoint (default port 8999), a unit's explicit one. */
export function imageEndpointOf(kind: 'Agent' | 'Unit', row: { name: string; namespace: string; spec: unknown }): string | null {
  if (kind === 'Agent') return agentEndpoint(row.name, row.namespace, row.spec as AgentSpec)
  const spec = row.spec as UnitSpec
  return spec.image && spec.endpoint ? spec.endpoint : null
}

export async function runImageDiscovery({
  kind,
  id,
  trigger,
  attempt = 1,
}: ImageDiscoveryRequest): Promise<{ status: 'succeeded' | 'failed' | 'skipped'; runId?: string; error?: string }> {
  const row = await readImageSubject(kind, id)
  if (!row) return { status: 'skipped' } // deleted since the job was queued
  const endpoint = imageEndpointOf(kind, row)
  if (!endpoint) return { status: 'skipped' }
  const digest = imageDigestOf((row.spec as { image?: string }).image)
  const run = { id: await startImageRun(kind, row, trigger, attempt, digest) }
  try {
    const slugs = await connectorSlugs()
    const readiness = config().TOOLROOM_DISCOVERY_READINESS_SECONDS ?? 30
    const result = await introspectImage(endpoint, { fetch: discoveryFetch(), connectorSlugs: slugs, readinessTimeoutMs: readiness * 1000 })
    const before = row.imageTools as unknown as ImageToolDefinition[]
    const diff = diffSurface(before as unknown as SurfaceTool[], result.tools as unknown as SurfaceTool[])
    // Refusals are recorded with the run and, when the surface moved or an entry is newly refused, with its change.
    const refused = storableJson(result.refused)
    const moved = !isEmptyDiff(diff) || newRefusals(refused, row.lastRefused).length > 0
    const details = {
      endpoint,
      refused,
      attempts: result.attempts,
      timings: result.timings,
      agentCard: result.agentCard,
      diff: summarizeDiff(diff),
    }
    const now = new Date()
    await finishImageRun(
      { imageTools: result.tools, imageDigest: digest, imageToolsUpdatedAt: now },
      {
        subjectKind: kind,
        subjectId: id,
        namespace: row.namespace,
        name: row.name,
        runId: run.id,
        finishedAt: now,
        toolCount: result.tools.length,
        details,
        change: moved ? { diff: refused.length > 0 ? { ...diff, refused } : diff, status: 'applied' } : null,
      },
    )
    return { status: 'succeeded', runId: run.id }
  } catch (error) {
    const e = error as Error & { step?: string; failure?: string; attempts?: number }
    await prisma.discoveryRun.update({
      where: { id: run.id },
      data: { status: 'failed', finishedAt: new Date(), error: e.message, details: { endpoint, step: e.step, failure: e.failure, attempts: e.attempts } },
    })
    return { status: 'failed', runId: run.id, error: e.message }
  }
}
