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
import { getEffectiveSetDigests } from './get-effective-tools'
import { serializeObjectParts } from './serialize-effective-tools'
import { answerValue, effectiveSetBody } from './subject-answers'
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
 * figures zero), each entry spelled as the digest of its text (getEffectiveSetDigests), hashed.
 */
async function effectiveSetVersion(kind: Subject, row: Row, includeExcluded: boolean): Promise<string> {
  const set = await getEffectiveSetDigests(kind, row, includeExcluded)
  return contentVersion(serializeObjectParts(answerValue(kind, row, set, includeExcluded ? 'excluded' : 'tools')))
}

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

export async function watchEffectiveSet(request: WatchRequest & { includeExcluded: boolean }): Promise<Response> {
  admitWatch()
  // Resolved before the stream opens: an unknown subject is a 404, not an empty stream.
  const { id } = await getRow(request.kind, request.idOrName, request.namespace)
  const { kind, includeExcluded } = request
  const bodyUnder = async (version: string) => ({ version, object: new JsonText(await effectiveSetBody(kind, id, includeExcluded)) })
  return watchAnswer({
    key: `effective:${kind}:${id}:${includeExcluded ? 'excluded' : 'tools'}`,
    // The version first, then the body: the body is then never older than the version it is sent
    // under (a change between the two is sent again once the feed sees it).
    read: () => whileItExists(kind, id, async (row) => bodyUnder(await effectiveSetVersion(kind, row, includeExcluded))),
    version: () => whileItExists(kind, id, (row) => effectiveSetVersion(kind, row, includeExcluded)),
    // After a change the feed has just fingerprinted the set: only the body is read.
    readUnder: (version) => whileItExists(kind, id, () => bodyUnder(version)),
    dependencies: () => storedAnswerDependencies(kind, id),
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
    notices: request.notices,
  })
}
