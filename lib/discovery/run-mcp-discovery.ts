// One introspection of an MCP tool server (LanguageTool), recorded: phase, health, the tools with
// their annotations, the compliance report, and change events. With pinning, a changed definition of
// a tool agents already have is held for review: agents keep the accepted one until it is accepted.
import 'server-only'
import { config } from '@/lib/config'
import { prisma } from '@/lib/db'
import type { DiscoveredMcpTool } from '@/lib/effective-tools/catalog-tools'
import { languageToolEndpoint, type LanguageToolSpec } from '@/lib/manifests/specs/language-tool'
import { sameJson } from '@/lib/resources/kind-adapters'
import { scrubText, scrubTree } from '@/lib/secrets/scrub-values'
import { maskSecretValues } from '@/lib/secrets/mask-secret-values'
import { storableJson } from '@/lib/storage/storable-text'
import { readSecretValue } from '@/lib/secrets/read-secret-value'
import { isConnection } from '@/lib/manifests/specs/upstream-auth'
import { getConnectionToken } from '@/lib/upstream-auth/get-connection-token'
import { getUpstreamToken } from '@/lib/upstream-auth/get-upstream-token'
import { diffSurface, isEmptyDiff, newRefusals, summarizeDiff, type SurfaceDiff, type SurfaceTool } from './diff-surface'
import { introspectMcpServer } from './introspect-mcp-server'
import { finishMcpRun, startMcpRun } from './record-discovery-run'
import { discoveryFetch } from '@/lib/outbound/outbound-clients'
import { refreshOAuthToolStatus, refreshToolStatusAfter } from '@/lib/tools/refresh-tool-status'
import type { DiscoveryTrigger } from '@/lib/jobs/discovery-triggers'

export async function runMcpDiscovery({
  id,
  trigger,
  attempt = 1,
}: {
  id: string
  trigger: DiscoveryTrigger
  attempt?: number
}): Promise<{ status: 'succeeded' | 'failed' | 'skipped'; runId?: string; error?: string }> {
  const server = await startMcpRun(id, trigger, attempt)
  if (!server) return { status: 'skipped' }
  const run = { id: server.runId }
  const spec = server.spec as LanguageToolSpec
  const endpoint = languageToolEndpoint(server.name, server.namespace, spec)
  // The secrets sent to the server: an upstream may echo them (in an error, a description, its
  // compliance answers), and everything stored here is readable by every viewer.
  const sensitive = new Set<string>()
  try {
    const headers: Record<string, string> = {}
    for (const h of spec.authHeaders ?? []) {
      const value = await readSecretValue(h.secretRef, server.namespace)
      headers[h.name] = value
      for (const form of secretForms(value)) sensitive.add(form)
    }
    // The same access token the gateway's calls carry: a refusal fails the run with the server's error.
    // A connected server's is its connection's: without one the run fails saying it needs connecting.
    if (spec.auth) {
      const oauth2 = spec.auth.oauth2
      const token = isConnection(oauth2)
        ? await getConnectionToken({ namespace: server.namespace, name: server.name, endpoint, oauth2 })
        : await getUpstreamToken(oauth2, server.namespace, refreshOAuthToolStatus)
      headers.authorization = `Bearer ${token}`
      for (const form of secretForms(token)) sensitive.add(form)
    }
    const readiness = config().TOOLROOM_DISCOVERY_READINESS_SECONDS ?? 15
    const previous = server.compliance as { checkedAt?: string } | null
    const probeCompliance = shouldProbeCompliance(trigger, previous?.checkedAt, new Date())
    // The run that re-probes compliance (any trigger but the sweep, and the sweep once a day) also
    // tries the newest revision first, so a server that gained it is found; the others start with
    // the transport that worked last time.
    const remembered =
      !probeCompliance && server.detectedTransport && server.detectedUrl ? { transport: server.detectedTransport, url: server.detectedUrl } : undefined
    const result = scrubTree(
      await introspectMcpServer(
        { endpoint, transport: spec.transport, headers, remembered },
        { fetch: discoveryFetch(), readinessTimeoutMs: readiness * 1000, probeCompliance },
      ),
      sensitive,
    ) as Awaited<ReturnType<typeof introspectMcpServer>>
    const compliance = probeCompliance ? { ...result.compliance, checkedAt: new Date().toISOString() } : previous
    const accepted = server.toolSchemas as unknown as DiscoveredMcpTool[]
    const diff = diffSurface(accepted as unknown as SurfaceTool[], result.tools as unknown as SurfaceTool[])
    const held = isPinned(spec, server.namespace) && diff.changed.length > 0
    // A held change an operator already has in front of them (or rejected) is not raised again.
    const alreadyRaised =
      held &&
      (await prisma.surfaceChange.findMany({ where: { subjectId: id, status: { in: ['pending_review', 'rejected'] } }, select: { proposed: true } })).some(
        (c) => sameJson(c.proposed, result.tools),
      )
    // Held: additions and removals go through, changed definitions keep their accepted version.
    const applied = held ? withAcceptedDefinitions(result.tools, accepted, diff) : result.tools
    // Refusals are recorded with the run and, when the surface moved or a tool is newly refused, with its change.
    const refused = storableJson(result.refused)
    const moved = !isEmptyDiff(diff) || newRefusals(refused, server.lastRefused).length > 0
    const now = new Date()
    await finishMcpRun(
      {
        health: result.health,
        toolSchemas: applied,
        detectedTransport: result.transport,
        detectedUrl: result.url,
        compliance: compliance ?? undefined,
        serverInfo: result.serverInfo ?? null,
        lastIntrospectedAt: now,
      },
      {
        subjectId: id,
        namespace: server.namespace,
        name: server.name,
        runId: run.id,
        finishedAt: now,
        toolCount: result.tools.length,
        details: {
          endpoint,
          transport: result.transport,
          health: result.health,
          refused,
          timings: result.timings,
          diff: summarizeDiff(diff),
          held,
        },
        change:
          !moved || alreadyRaised
            ? null
            : {
                diff: refused.length > 0 ? { ...diff, refused } : diff,
                status: held ? 'pending_review' : 'applied',
                proposed: held ? result.tools : undefined,
              },
      },
    )
    await refreshToolStatusAfter([{ kind: 'LanguageTool', namespace: server.namespace, name: server.name }])
    return { status: 'succeeded', runId: run.id }
  } catch (error) {
    const message = maskSecretValues(scrubText((error as Error).message, sensitive))
    await prisma.$transaction([
      prisma.languageTool.update({ where: { id }, data: { phase: 'Failed', lastError: message, lastIntrospectedAt: new Date() } }),
      prisma.discoveryRun.update({ where: { id: run.id }, data: { status: 'failed', finishedAt: new Date(), error: message, details: { endpoint } } }),
    ])
    // Tools of type mcp on this server are Ready only while it is (and lists them).
    await refreshToolStatusAfter([{ kind: 'LanguageTool', namespace: server.namespace, name: server.name }])
    return { status: 'failed', runId: run.id, error: message }
  }
}

// The compliance probes are a third of an MCP discovery's cost and a server's compliance rarely moves:
// the periodic sweep re-probes once a day; every other trigger (new, changed, on request) probes.
const COMPLIANCE_MAX_AGE_MS = 24 * 60 * 60 * 1000

export function shouldProbeCompliance(trigger: DiscoveryTrigger, checkedAt: string | undefined, now: Date): boolean {
  if (trigger !== 'periodic' || !checkedAt) return true
  const age = now.getTime() - Date.parse(checkedAt)
  return !(age >= 0 && age < COMPLIANCE_MAX_AGE_MS)
}

/** A server's own `spec.pinning` decides; otherwise TOOLROOM_PINNED_NAMESPACES does. */
export function isPinned(spec: LanguageToolSpec, namespace: string, pinnedNamespaces: readonly string[] = config().TOOLROOM_PINNED_NAMESPACES): boolean {
  if (spec.pinning !== undefined) return spec.pinning
  return pinnedNamespaces.includes(namespace)
}

function withAcceptedDefinitions(discovered: DiscoveredMcpTool[], accepted: DiscoveredMcpTool[], diff: SurfaceDiff): DiscoveredMcpTool[] {
  const changed = new Set(diff.changed.map((c) => c.name))
  const acceptedByName = new Map(accepted.map((t) => [t.name, t]))
  return discovered.map((t) => (changed.has(t.name) ? acceptedByName.get(t.name)! : t))
}

/** A secret as an upstream could echo it: plain, and base64 (what a Basic header carries). */
function secretForms(value: string): string[] {
  const b64 = Buffer.from(value, 'utf8').toString('base64')
  return [value, b64, b64.replace(/=+$/, '')]
}
