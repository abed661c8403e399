// The API's answers about an agent's or unit's tools (the subject with its effective set, and the
// effective set with its exclusions), cached alike. They are the API's most read answers: kept
// serialized until a registry change touches the subject (the agent, a unit of its chain, or
// everyone: answer-dependencies.ts) or the 7-day call statistics their entries carry move (the stats
// version), whichever comes first.
import { registryEpoch } from '@/lib/registry/registry-changes'
import type { Row } from '@/lib/resources/kind-adapters'
import { toResourceView } from '@/lib/resources/resource-view'
import { toolStatsSnapshot } from '@/lib/stats/tool-stats-cache'
import { type Answer, cachedAnswer } from './answer-cache'
import { answerDependencies } from './answer-dependencies'
import { getEffectiveSetTextAndDigests, getSerializedEffectiveTools, type SerializedEffectiveSet } from './get-effective-tools'
import { serializeObject } from './serialize-effective-tools'
import { knownSubjectId, rememberSubjectId } from './subject-ids'
import { subjectRow } from './subject-rows'
import type { UnresolvedReference } from './types'

type Subject = 'Agent' | 'Unit'
export type AnswerShape = 'resource' | 'tools' | 'excluded'

/** `GET /api/v1/{agents|units}/{id}`: the resource with its effective tools and unresolved references. */
export async function subjectAnswer(kind: Subject, idOrName: string, namespace: string | undefined): Promise<Response> {
  return jsonAnswer((await cachedSet(kind, idOrName, namespace, 'resource')).body)
}

/** `GET …/effective-tools`: the effective tools, with the shadowed and denied entries when asked. */
export async function effectiveSetAnswer(kind: Subject, idOrName: string, namespace: string | undefined, includeExcluded: boolean): Promise<Response> {
  return jsonAnswer((await cachedSet(kind, idOrName, namespace, includeExcluded ? 'excluded' : 'tools')).body)
}

/** The effective-tools answer's body, as a plain GET of it has it (from the same cache): a watch's events carry it. */
export async function effectiveSetBody(kind: Subject, id: string, includeExcluded: boolean): Promise<Buffer> {
  return (await cachedSet(kind, id, undefined, includeExcluded ? 'excluded' : 'tools')).body
}

/** How a watch fingerprints an effective set: from the subject's row and its set without statistics, as digests. */
export type SetFingerprint = (row: Row, digests: SerializedEffectiveSet) => string

/**
 * The effective-tools answer as a watch reads it: the body a plain GET has, what it depends on, and
 * the fingerprint of its registry-derived content, all three from one read and one resolution, from
 * the same cache as the GETs (kept for the events and GETs that follow a change). A body a GET cached
 * without its fingerprint is computed again with it: a fingerprint worked out apart could be of newer
 * reads than the body, and a watcher then kept the older body under the newer version.
 */
export async function effectiveSetForWatch(
  kind: Subject,
  id: string,
  includeExcluded: boolean,
  fingerprintOf: SetFingerprint,
): Promise<Answer & { fingerprint: string }> {
  const answer = await cachedSet(kind, id, undefined, includeExcluded ? 'excluded' : 'tools', fingerprintOf)
  if (answer.fingerprint === undefined) throw new Error(`the answer cache gave a watch an answer without its fingerprint (${kind} ${id})`)
  return answer as Answer & { fingerprint: string }
}

async function cachedSet(kind: Subject, idOrName: string, namespace: string | undefined, shape: AnswerShape, fingerprintOf?: SetFingerprint): Promise<Answer> {
  const { version: statsVersion } = await toolStatsSnapshot()
  const withExcluded = shape === 'excluded'
  const subject = await subjectOf(kind, idOrName, namespace)
  // Nothing awaited between here and the cache's lookup: the row, read in this epoch, is one the
  // answer may be computed from; otherwise the computation reads it again.
  const read = subject.epoch !== null && subject.epoch === registryEpoch() ? subject.row : null
  // Keyed by the subject's id, whichever address named it: a GET by name, a GET by id and a watch
  // share one answer (a notice's version and the GET that follows it are then of the same reads).
  return cachedAnswer(
    `${kind}:${subject.id}:${shape}`,
    async () => {
      const row = read ?? (await subjectRow(kind, subject.id, undefined))
      const dependencies = answerDependencies(kind, row)
      if (!fingerprintOf) {
        const [set, dependsOn] = await Promise.all([getSerializedEffectiveTools(kind, row, withExcluded), dependencies])
        return { body: serializeObject(answerValue(kind, row, set, shape)), dependsOn }
      }
      const [{ text, digests }, dependsOn] = await Promise.all([getEffectiveSetTextAndDigests(kind, row, withExcluded), dependencies])
      return { body: serializeObject(answerValue(kind, row, text, shape)), dependsOn, fingerprint: fingerprintOf(row, digests) }
    },
    statsVersion,
    fingerprintOf !== undefined,
  )
}

/**
 * The id of the subject `idOrName` names: remembered (subject-ids.ts), else read, with the row and the
 * registry epoch its read began at.
 */
async function subjectOf(kind: Subject, idOrName: string, namespace: string | undefined): Promise<{ id: string; row: Row | null; epoch: number | null }> {
  const known = knownSubjectId(kind, idOrName, namespace)
  if (known !== undefined) return { id: known, row: null, epoch: null }
  const epoch = registryEpoch()
  const row = await subjectRow(kind, idOrName, namespace)
  rememberSubjectId(kind, idOrName, namespace, row, epoch)
  return { id: row.id, row, epoch }
}

/**
 * The answer of `shape` about `row` with its effective set `set`: entries as objects (the reference
 * shape, JSON.stringify'd) or as serialized text (spliced in by serializeObject), in the same key order.
 */
export function answerValue<Entries>(
  kind: Subject,
  row: Row,
  set: { tools: Entries; excluded: Entries; unresolved: UnresolvedReference[] },
  shape: AnswerShape,
): Record<string, unknown> {
  if (shape === 'resource') return { ...toResourceView(kind, row), effectiveTools: set.tools, unresolved: set.unresolved }
  return { effectiveTools: set.tools, ...(shape === 'excluded' ? { excluded: set.excluded } : {}), unresolved: set.unresolved }
}

// undici's Response copies a typed-array body (315 KB an answer, measured: about a tenth of a
// full-fleet recompute's CPU); a stream of one chunk hands over the cached bytes themselves, which
// nothing writes to.
const jsonAnswer = (body: Buffer) =>
  new Response(
    new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new Uint8Array(body.buffer as ArrayBuffer, body.byteOffset, body.byteLength))
        controller.close()
      },
    }),
    { headers: { 'content-type': 'application/json' } },
  )
