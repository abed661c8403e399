// `GET …/effective-tools?watch=1`: the effective set as a stream of events, one each time the set
// changes (the Kubernetes watch convention over server-sent events). Every event carries a
// `resourceVersion`, the fingerprint of the registry-derived set (the 7-day statistics its entries
// carry move on their own clock and are not a change); a client that reconnects with the last one it
// saw (`resourceVersion=` or the Last-Event-ID header an EventSource sends) is sent the current set
// only if it differs. Changes come from the shared change feed (lib/registry/change-feed.ts), so the
// set is worked out again only for subjects whose fingerprint moved. Design:
// docs/design/resource-model.md#watch.
import 'server-only'
import { createHash } from 'node:crypto'
import { config } from '@/lib/config'
import { AppError } from '@/lib/errors/app-error'
import { SSE_HEADERS, SseStream } from '@/lib/http/sse-stream'
import { watchedCounts, watchSubject } from '@/lib/registry/change-feed'
import { getRow } from '@/lib/resources/resource-store'
import { getEffectiveTools } from './get-effective-tools'
import { loadResolverInput } from './load-resolver-input'
import { resolveEffectiveTools } from './resolve-effective-tools'
import type { EffectiveToolSet } from './types'

type Subject = 'Agent' | 'Unit'

/** Idle connections (and proxies between) are kept open with a comment this often. */
const KEEP_ALIVE_MS = 25_000

export interface WatchRequest {
  kind: Subject
  idOrName: string
  namespace?: string
  includeExcluded: boolean
  /** The version the client last saw; the current set is sent first unless it is still this one. */
  resumeFrom?: string
  /** Aborts when the client goes away. */
  signal: AbortSignal
}

/** The event body: what a GET of the same address answers, plus the version it is at. */
function shapeOf(set: EffectiveToolSet, includeExcluded: boolean) {
  return { effectiveTools: set.tools, ...(includeExcluded ? { excluded: set.excluded } : {}), unresolved: set.unresolved }
}

/** The fingerprint of the registry-derived set: entries without their statistics. */
export function effectiveSetVersion(set: EffectiveToolSet, includeExcluded: boolean): string {
  const withoutStats = JSON.stringify(shapeOf(set, includeExcluded), (key, value) => (key === 'stats' ? undefined : value))
  return createHash('sha256').update(withoutStats).digest('base64url').slice(0, 22)
}

async function registryVersion(kind: Subject, id: string, includeExcluded: boolean): Promise<string> {
  try {
    const row = await getRow(kind, id)
    return effectiveSetVersion(await loadResolverInput(kind, row).then(resolveEffectiveTools), includeExcluded)
  } catch (error) {
    if (error instanceof AppError && error.code === 'NOT_FOUND') return 'deleted'
    throw error
  }
}

export async function watchEffectiveSet(request: WatchRequest): Promise<Response> {
  if (watchedCounts().watchers >= config().TOOLROOM_WATCH_STREAMS)
    throw new AppError(
      'TOO_MANY_REQUESTS',
      `this process holds its limit of ${config().TOOLROOM_WATCH_STREAMS} watches (TOOLROOM_WATCH_STREAMS); try again later or on another replica`,
    )
  // Resolved before the stream opens: an unknown subject is a 404, not an empty stream.
  const row = await getRow(request.kind, request.idOrName, request.namespace)
  const stream = new SseStream()
  let lastSent = request.resumeFrom ?? null
  let pending: Promise<void> = Promise.resolve()

  const sendCurrent = async (type: 'ADDED' | 'MODIFIED') => {
    let set: EffectiveToolSet
    try {
      set = await getEffectiveTools(request.kind, await getRow(request.kind, row.id))
    } catch (error) {
      if (!(error instanceof AppError && error.code === 'NOT_FOUND')) throw error
      stream.event('DELETED', { type: 'DELETED', resourceVersion: 'deleted' }, 'deleted')
      stream.close()
      return
    }
    const resourceVersion = effectiveSetVersion(set, request.includeExcluded)
    if (resourceVersion === lastSent) return
    lastSent = resourceVersion
    stream.event(type, { type, resourceVersion, object: shapeOf(set, request.includeExcluded) }, resourceVersion)
  }
  // One refresh at a time, in order: a stream never sends an older set after a newer one.
  const refresh = (type: 'ADDED' | 'MODIFIED') => {
    pending = pending
      .then(() => sendCurrent(type))
      .catch((error) => {
        console.error(`[watch] ${request.kind} ${row.id}: ${(error as Error).message}`)
        stream.close()
      })
  }

  // Watch first, then read: a change committed in between is seen by one or the other.
  const stop = watchSubject(
    `effective:${request.kind}:${row.id}:${request.includeExcluded ? 'excluded' : 'tools'}`,
    () => registryVersion(request.kind, row.id, request.includeExcluded),
    () => refresh('MODIFIED'),
  )
  refresh('ADDED')
  const keepAlive = setInterval(() => stream.keepAlive(), KEEP_ALIVE_MS)
  keepAlive.unref?.()
  const end = () => {
    clearInterval(keepAlive)
    stop()
    stream.close()
  }
  stream.closed.addEventListener('abort', end, { once: true })
  request.signal.addEventListener('abort', end, { once: true })
  return new Response(stream.body, { headers: SSE_HEADERS })
}
