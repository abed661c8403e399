// `GET …/effective-tools?watch=1` and `GET …/config.yaml?watch=1`: those answers as watches
// (lib/http/watch-stream.ts). The effective set's resourceVersion is a fingerprint of its
// registry-derived content: the 7-day statistics its entries carry move on the rollup's clock and are
// not a change of the set. Design: docs/design/resource-model.md#watch.
import 'server-only'
import type { Actor } from '@/lib/auth/access-rules'
import { AppError } from '@/lib/errors/app-error'
import { admitWatch, contentVersion, watchAnswer } from '@/lib/http/watch-stream'
import { getRow } from '@/lib/resources/resource-store'
import { agentConfigYaml } from './agent-config'
import { storedAnswerDependencies } from './answer-dependencies'
import { getEffectiveTools } from './get-effective-tools'
import { loadSharedResolverInput } from './load-resolver-input'
import { resolveEffectiveTools } from './resolve-effective-tools'
import type { EffectiveToolSet } from './types'

type Subject = 'Agent' | 'Unit'

export interface WatchRequest {
  kind: Subject
  idOrName: string
  namespace?: string
  resumeFrom?: string
  signal: AbortSignal
}

/** The event body: what a GET of the same address answers. */
function shapeOf<Entry>(set: { tools: Entry[]; excluded: Entry[]; unresolved: EffectiveToolSet['unresolved'] }, includeExcluded: boolean) {
  return { effectiveTools: set.tools, ...(includeExcluded ? { excluded: set.excluded } : {}), unresolved: set.unresolved }
}

/** An entry without the 7-day statistics it carries. */
function withoutStatistics(entries: EffectiveToolSet['tools']) {
  return entries.map(({ totalCalls7d: _calls, failureRate7d: _failures, refusedCalls7d: _refused, ...entry }) => entry)
}

/**
 * The fingerprint of the registry-derived set: its entries without their statistics, left out by
 * name (not by a key anywhere in the text, which would also drop a tool's schema property so named).
 */
export function effectiveSetVersion(set: EffectiveToolSet, includeExcluded: boolean): string {
  const registryDerived = { ...set, tools: withoutStatistics(set.tools), excluded: withoutStatistics(set.excluded) }
  return contentVersion(JSON.stringify(shapeOf(registryDerived, includeExcluded)))
}

/** `fn` of the row, or null once the subject is gone. */
async function whileItExists<T>(kind: Subject, id: string, fn: (row: Awaited<ReturnType<typeof getRow>>) => Promise<T>): Promise<T | null> {
  let row
  try {
    row = await getRow(kind, id)
  } catch (error) {
    if (error instanceof AppError && error.code === 'NOT_FOUND') return null
    throw error
  }
  return fn(row)
}

export async function watchEffectiveSet(request: WatchRequest & { includeExcluded: boolean }): Promise<Response> {
  admitWatch()
  // Resolved before the stream opens: an unknown subject is a 404, not an empty stream.
  const { id } = await getRow(request.kind, request.idOrName, request.namespace)
  const { kind, includeExcluded } = request
  return watchAnswer({
    key: `effective:${kind}:${id}:${includeExcluded ? 'excluded' : 'tools'}`,
    read: () =>
      whileItExists(kind, id, async (row) => {
        const set = await getEffectiveTools(kind, row)
        return { version: effectiveSetVersion(set, includeExcluded), object: shapeOf(set, includeExcluded) }
      }),
    // The shared input (the unit chain's candidates worked out once per chain and epoch): after a
    // change, every watched agent of a unit is fingerprinted again in the same epoch.
    version: () =>
      whileItExists(kind, id, async (row) => effectiveSetVersion(await loadSharedResolverInput(kind, row).then(resolveEffectiveTools), includeExcluded)),
    dependencies: () => storedAnswerDependencies(kind, id),
    resumeFrom: request.resumeFrom,
    signal: request.signal,
  })
}

/** The agent's config.yaml as a watch: each event's object is the YAML text. */
export async function watchAgentConfig(request: Omit<WatchRequest, 'kind'> & { caller: Actor; publicOrigin: string }): Promise<Response> {
  admitWatch()
  const agent = await getRow('Agent', request.idOrName, request.namespace)
  // The caller's access is checked once here, as the plain GET does, before the stream opens.
  await agentConfigYaml(agent, request.caller, request.publicOrigin)
  return watchAnswer({
    // The gateway address in the text comes from the request's origin: watchers of two origins differ.
    key: `config.yaml:${agent.id}:${request.publicOrigin}`,
    read: () =>
      whileItExists('Agent', agent.id, async (row) => {
        const text = await agentConfigYaml(row, request.caller, request.publicOrigin)
        return { version: contentVersion(text), object: text }
      }),
    dependencies: () => storedAnswerDependencies('Agent', agent.id),
    resumeFrom: request.resumeFrom,
    signal: request.signal,
  })
}
