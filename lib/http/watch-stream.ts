// A watch of one answer derived from the registry, as a server-sent event stream (the Kubernetes
// watch convention): `ADDED` with the current answer, `MODIFIED` each time it changes, `DELETED` (and
// the end of the stream) when its subject is gone. Every event carries a `resourceVersion`, a
// fingerprint of the answer's content, which is also the event id: a client that reconnects with the
// last one it saw (`resourceVersion=` or the Last-Event-ID header an EventSource sends) is sent the
// current answer only if it differs, on any process. Changes come from the shared change feed
// (change-feed.ts). Design: docs/design/resource-model.md#watch.
import 'server-only'
import { createHash } from 'node:crypto'
import { config } from '@/lib/config'
import { AppError } from '@/lib/errors/app-error'
import { SSE_HEADERS, SseStream } from '@/lib/http/sse-stream'
import { watchedCounts, watchSubject } from '@/lib/registry/change-feed'

/** Idle connections (and proxies between) are kept open with a comment this often. */
const KEEP_ALIVE_MS = 25_000

/** An event's object as JSON text already serialized (an answer's cached body), sent as it is. */
export class JsonText {
  constructor(readonly bytes: Uint8Array) {}
}

/** The answer now, or null once its subject is gone. */
export type ReadAnswer<T> = () => Promise<{ version: string; object: T | JsonText } | null>

export interface WatchedAnswer<T> {
  /** Names the answer for the change feed: watchers of one key share one fingerprint. */
  key: string
  read: ReadAnswer<T>
  /**
   * The version and what the answer depends on (so that the feed skips it after changes elsewhere:
   * change-feed.ts), or null once the subject is gone. The feed asks after every registry change that
   * may touch the answer. Without it: `read`'s version, and every change looks at the answer.
   */
  look?: () => Promise<{ version: string; dependsOn: ReadonlySet<string> | null } | null>
  /**
   * The answer under a version the feed has just worked out (from `look`): only its object is
   * read, then. It must be read after that version was, so that it is never older than the version
   * it is sent under (a newer one is sent again once the feed sees its change).
   */
  readUnder?: (version: string) => Promise<{ version: string; object: T | JsonText } | null>
  /** The version the client last saw; the current answer is sent first unless it is still this one. */
  resumeFrom?: string
  /** Aborts when the client goes away. */
  signal: AbortSignal
  /**
   * Notices instead of objects (`events=notices`): each event carries the version and `etag()`, the
   * tag a plain GET of the answer carries now, never the answer itself. Asked after the version, so a
   * GET under that tag answers what the event announced or newer.
   */
  notices?: { etag: () => Promise<string | null> }
}

/** A resourceVersion: short, opaque, and the same for the same content on every process. */
export function contentVersion(content: string | readonly Uint8Array[]): string {
  const hash = createHash('sha256')
  if (typeof content === 'string') hash.update(content)
  else for (const part of content) hash.update(part)
  return hash.digest('base64url').slice(0, 22)
}

/** Refuses a watch beyond this process's bound before anything is opened or read. */
export function admitWatch(): void {
  const limit = config().TOOLROOM_WATCH_STREAMS
  if (watchedCounts().watchers >= limit)
    throw new AppError('TOO_MANY_REQUESTS', `this process holds its limit of ${limit} watches (TOOLROOM_WATCH_STREAMS); try again later or on another replica`)
}

export function watchAnswer<T>(watched: WatchedAnswer<T>): Response {
  const stream = new SseStream()
  let lastSent = watched.resumeFrom ?? null
  let pending: Promise<void> = Promise.resolve()

  const look =
    watched.look ??
    (async () => {
      const answer = await watched.read()
      return answer && { version: answer.version, dependsOn: null }
    })
  const version = async () => (await look())?.version ?? null
  const sendNotice = async (type: 'ADDED' | 'MODIFIED', etag: () => Promise<string | null>, known?: string) => {
    // The feed's fingerprint of a subject that is gone is 'deleted' (below), never a content's.
    const current = known !== undefined ? known : await version()
    if (current === null || current === 'deleted') return deleted()
    if (current === lastSent) return
    lastSent = current
    stream.event(type, { type, resourceVersion: current, etag: await etag() }, current)
  }
  const deleted = () => {
    stream.event('DELETED', { type: 'DELETED', resourceVersion: 'deleted' }, 'deleted')
    stream.close()
  }
  const sendCurrent = async (type: 'ADDED' | 'MODIFIED', known?: string) => {
    if (watched.notices) return sendNotice(type, watched.notices.etag, known)
    const current = known !== undefined && watched.readUnder ? await watched.readUnder(known) : await watched.read()
    if (current === null) return deleted()
    if (current.version === lastSent) return
    lastSent = current.version
    if (current.object instanceof JsonText) {
      const head = JSON.stringify({ type, resourceVersion: current.version })
      stream.eventParts(type, [`${head.slice(0, -1)},"object":`, current.object.bytes, '}'], current.version)
    } else stream.event(type, { type, resourceVersion: current.version, object: current.object }, current.version)
  }
  // One read at a time, in order: a stream never sends an older answer after a newer one.
  const refresh = (type: 'ADDED' | 'MODIFIED', known?: string) => {
    pending = pending
      .then(() => sendCurrent(type, known))
      .catch((error) => {
        console.error(`[watch] ${watched.key}: ${(error as Error).message}`)
        stream.close()
      })
  }

  // Watch first, then read: a change committed in between is seen by one or the other.
  const stop = watchSubject(
    watched.key,
    async () => {
      const seen = await look()
      return seen ? { fingerprint: seen.version, dependsOn: seen.dependsOn } : { fingerprint: 'deleted', dependsOn: null }
    },
    (fingerprint) => refresh('MODIFIED', fingerprint),
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
  watched.signal.addEventListener('abort', end, { once: true })
  return new Response(stream.body, { headers: SSE_HEADERS })
}
