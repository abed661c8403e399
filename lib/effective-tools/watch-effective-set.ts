// `GET …/effective-tools?watch=1` and `GET …/config.yaml?watch=1`: those answers as watches
// (lib/http/watch-stream.ts). The effective set's resourceVersion is a fingerprint of its
// registry-derived content: the 7-day statistics its entries carry move on the rollup's clock and are
// not a change of the set. Design: docs/design/resource-model.md#watch.
import 'server-only'
import type { Actor } from '@/lib/auth/access-rules'
import { AppError } from '@/lib/errors/app-error'
import { admitWatch, contentVersion, JsonText, watchAnswer } from '@/lib/http/watch-stream'
import type { Row } from '@/lib/resources/kind-adapters'
import { getRow } from '@/lib/resources/resource-store'
import { agentConfigYaml } from './agent-config'
import { storedAnswerDependencies } from './answer-dependencies'
import type { SerializedEffectiveSet } from './get-effective-tools'
import { serializeObjectParts } from './serialize-effective-tools'
import { answerValue, effectiveSetBody, effectiveSetForWatch } from './subject-answers'
import { subjectRow } from './subject-rows'

type Subject = 'Agent' | 'Unit'

export interface WatchRequest {
  kind: Subject
  idOrName: string
  namespace?: string
  resumeFrom?: string
  signal: AbortSignal
  /** `events=notices`: events carry the version and the plain GET's tag, not the answer (watch-stream.ts). */
  notices?: { etag: () => Promise<string | null> }
}

/**
 * The fingerprint of the registry-derived set: the answer without call statistics (every entry's
 * figures zero), each entry spelled as the digest of its text (the digests of
 * getEffectiveSetTextAndDigests, made beside the answer's text), hashed.
 */
const setVersion =
  (kind: Subject, includeExcluded: boolean) =>
  (row: Row, digests: SerializedEffectiveSet): string =>
    contentVersion(serializeObjectParts(answerValue(kind, row, digests, includeExcluded ? 'excluded' : 'tools')))

/** `fn` of the row, or null once the subject is gone. */
async function whileItExists<T>(kind: Subject, id: string, fn: (row: Row) => Promise<T>): Promise<T | null> {
  let row
  try {
    // Read in batches with the other subjects the change feed is looking at (subject-rows.ts).
    row = await subjectRow(kind, id, undefined)
  } catch (error) {
    if (error instanceof AppError && error.code === 'NOT_FOUND') return null
    throw error
  }
  return fn(row)
}

/** `read()`, or null once the subject is gone. */
async function unlessGone<T>(read: () => Promise<T>): Promise<T | null> {
  try {
    return await read()
  } catch (error) {
    if (error instanceof AppError && error.code === 'NOT_FOUND') return null
    throw error
  }
}

export async function watchEffectiveSet(request: WatchRequest & { includeExcluded: boolean }): Promise<Response> {
  admitWatch()
  // Resolved before the stream opens: an unknown subject is a 404, not an empty stream.
  const { id } = await getRow(request.kind, request.idOrName, request.namespace)
  const { kind, includeExcluded } = request
  const versionOf = setVersion(kind, includeExcluded)
  // The answer and its version from the same reads: computed together after a change (and kept for
  // the event and the GETs that follow), or both from the cache.
  const current = () => unlessGone(() => effectiveSetForWatch(kind, id, includeExcluded, versionOf))
  return watchAnswer({
    key: `effective:${kind}:${id}:${includeExcluded ? 'excluded' : 'tools'}`,
    read: async () => {
      const answer = await current()
      return answer && { version: answer.fingerprint, object: new JsonText(answer.body) }
    },
    look: async () => {
      const answer = await current()
      return answer && { version: answer.fingerprint, dependsOn: answer.dependsOn }
    },
    // After a change the feed has just looked at the set, which left its body in the cache.
    readUnder: async (version) => unlessGone(async () => ({ version, object: new JsonText(await effectiveSetBody(kind, id, includeExcluded)) })),
    resumeFrom: request.resumeFrom,
    signal: request.signal,
    notices: request.notices,
  })
}

/** The agent's config.yaml as a watch: each event's object is the YAML text. */
export async function watchAgentConfig(request: Omit<WatchRequest, 'kind'> & { caller: Actor; publicOrigin: string }): Promise<Response> {
  admitWatch()
  const agent = await getRow('Agent', request.idOrName, request.namespace)
  // The caller's access is checked once here, as the plain GET does, before the stream opens.
  await agentConfigYaml(agent, request.caller, request.publicOrigin)
  const readText = () => whileItExists('Agent', agent.id, (row) => agentConfigYaml(row, request.caller, request.publicOrigin))
  return watchAnswer({
    // The gateway address in the text comes from the request's origin: watchers of two origins differ.
    key: `config.yaml:${agent.id}:${request.publicOrigin}`,
    read: async () => {
      const text = await readText()
      return text === null ? null : { version: contentVersion(text), object: text }
    },
    look: async () => {
      const [text, dependsOn] = await Promise.all([readText(), storedAnswerDependencies('Agent', agent.id)])
      return text === null ? null : { version: contentVersion(text), dependsOn }
    },
    resumeFrom: request.resumeFrom,
    signal: request.signal,
    notices: request.notices,
  })
}
