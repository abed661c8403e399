// The bookkeeping of a discovery run in as few statements as possible: every discovery reads its
// subject, opens a run and closes it with the refreshed cache and its change event. Through the Prisma
// query builder that was six or seven round trips and a sixth of a worker's CPU; here it is one
// statement to start and one to finish (atomic: data-modifying CTEs of one statement commit together).
import 'server-only'
import type { DiscoveryTrigger } from '@/lib/jobs/discovery-triggers'
import { randomUUID } from 'node:crypto'
import type { Expression, UpdateQueryBuilder, UpdateResult } from 'kysely'
import { db, sql, type Tables } from '@/lib/sql'

const json = (value: unknown) => (value === undefined || value === null ? null : JSON.stringify(value))

/** The refusals of the subject's last successful run, as a column of a query whose subject's id is `subjectId`. */
const lastRefused = (kind: string, subjectId: Expression<string>) =>
  db
    .selectFrom('DiscoveryRun as previous')
    .select((eb) => sql<unknown>`${eb.ref('previous.details')}->'refused'`.as('refused'))
    .where('previous.subjectKind', '=', kind)
    .where('previous.subjectId', '=', subjectId)
    .where('previous.status', '=', 'succeeded')
    .orderBy('previous.startedAt', 'desc')
    .limit(1)
    .as('lastRefused')

export interface McpSubjectRow {
  id: string
  namespace: string
  name: string
  spec: unknown
  toolSchemas: unknown
  compliance: unknown
  /** How the last successful run reached the server (null before one). */
  detectedTransport: string | null
  detectedUrl: string | null
  runId: string
  /** The entries the last successful run refused (details.refused), if any. */
  lastRefused: unknown
}

/** Reads the server and opens its run ('running') in one statement; null when the server is gone. */
/**
 * A subject's discovery jobs run one at a time (their queue's singleton key), so a run still
 * `running` when the next starts was abandoned: its worker stopped (and handed the job back,
 * workers/take-jobs.ts) or died before it finished. It is closed as failed, saying so.
 */
function closeAbandonedRuns(subjectId: string) {
  return db
    .updateTable('DiscoveryRun')
    .set({
      status: 'failed',
      finishedAt: sql<Date>`now()`,
      error: 'abandoned: the worker stopped before this run finished; the next run replaced it',
    })
    .where('subjectId', '=', subjectId)
    .where('status', '=', 'running')
}

export async function startMcpRun(id: string, trigger: DiscoveryTrigger, attempt: number): Promise<McpSubjectRow | null> {
  const row = await db
    .with('subject', (q) =>
      q
        .selectFrom('LanguageTool')
        .select(['id', 'namespace', 'name', 'spec', 'toolSchemas', 'compliance', 'detectedTransport', 'detectedUrl'])
        .where('id', '=', id),
    )
    .with('abandoned', () => closeAbandonedRuns(id))
    .with('run', (q) =>
      q
        .insertInto('DiscoveryRun')
        .columns(['id', 'subjectKind', 'subjectId', 'namespace', 'name', 'trigger', 'status', 'attempt'])
        .expression((eb) =>
          eb
            .selectFrom('subject')
            .select((s) => [
              s.cast<string>(s.val(randomUUID()), 'uuid').as('runId'),
              sql.lit('LanguageTool').as('subjectKind'),
              'id',
              'namespace',
              'name',
              s.cast<string>(s.val(trigger), 'text').as('trigger'),
              sql.lit('running').as('status'),
              s.cast<number>(s.val(attempt), 'integer').as('attempt'),
            ]),
        )
        .returning('id'),
    )
    .selectFrom(['subject', 'run'])
    .selectAll('subject')
    .select((eb) => ['run.id as runId', lastRefused('LanguageTool', eb.ref('subject.id'))])
    .executeTakeFirst()
  return row ?? null
}

export interface ImageSubjectRow {
  id: string
  namespace: string
  name: string
  spec: unknown
  imageTools: unknown
  /** The entries the last successful run refused (details.refused), if any. */
  lastRefused: unknown
}

// Agents and units carry the same image columns; the queries are typed against Agent's, and this
// fails the build if Unit's ever differ.
type ImageColumns = 'id' | 'namespace' | 'name' | 'spec' | 'imageTools' | 'imageDigest' | 'imageToolsSource' | 'imageToolsUpdatedAt'
const sameImageColumns: Pick<Tables['Unit'], ImageColumns> extends Pick<Tables['Agent'], ImageColumns> ? true : never = true
const imageTable = (kind: 'Agent' | 'Unit') => (sameImageColumns ? kind : kind) as 'Agent'

export async function readImageSubject(kind: 'Agent' | 'Unit', id: string): Promise<ImageSubjectRow | null> {
  const row = await db
    .selectFrom(`${imageTable(kind)} as subject`)
    .select((eb) => ['id', 'namespace', 'name', 'spec', 'imageTools', lastRefused(kind, eb.ref('subject.id'))])
    .where('id', '=', id)
    .executeTakeFirst()
  return row ?? null
}

export async function startImageRun(
  kind: 'Agent' | 'Unit',
  row: ImageSubjectRow,
  trigger: DiscoveryTrigger,
  attempt: number,
  digest: string | null,
): Promise<string> {
  const runId = randomUUID()
  await db
    .with('abandoned', () => closeAbandonedRuns(row.id))
    .insertInto('DiscoveryRun')
    .values({ id: runId, subjectKind: kind, subjectId: row.id, namespace: row.namespace, name: row.name, trigger, status: 'running', attempt, digest })
    .execute()
  return runId
}

export interface SurfaceChangeRecord {
  diff: unknown
  status: 'applied' | 'pending_review'
  proposed?: unknown
}

interface RunOutcome {
  subjectKind: 'LanguageTool' | 'Agent' | 'Unit'
  subjectId: string
  namespace: string
  name: string
  runId: string
  finishedAt: Date
  toolCount: number
  details: unknown
  /** The change event to record with the run, if the surface moved. */
  change: SurfaceChangeRecord | null
}

/**
 * The subject's update, the change event (when there is one) and the run's close: one statement of
 * data-modifying CTEs (they do not read each other, so they commit together or not at all).
 */
async function closeRun<T extends keyof Tables>(o: RunOutcome, subjectUpdate: UpdateQueryBuilder<Tables, T, T, UpdateResult>): Promise<void> {
  const closed = db
    .with('subject', () => subjectUpdate)
    .with('run', () =>
      db
        .updateTable('DiscoveryRun')
        .set({ status: 'succeeded', finishedAt: o.finishedAt, toolCount: o.toolCount, details: sql`${json(o.details)}::jsonb` })
        .where('id', '=', o.runId),
    )
  const done = sql.lit(1).as('done')
  const change = o.change
  if (!change) return void (await closed.selectNoFrom(done).execute())
  await closed
    .with('change', () =>
      db.insertInto('SurfaceChange').values({
        id: randomUUID(),
        subjectKind: o.subjectKind,
        subjectId: o.subjectId,
        namespace: o.namespace,
        name: o.name,
        runId: o.runId,
        diff: sql`${json(change.diff)}::json`,
        status: change.status,
        proposed: sql`${json(change.proposed)}::json`,
      }),
    )
    .selectNoFrom(done)
    .execute()
}

export interface McpCache {
  health: string
  toolSchemas: unknown
  detectedTransport: string
  detectedUrl: string
  /** Left as it is when undefined. */
  compliance: unknown
  serverInfo: unknown
  lastIntrospectedAt: Date
}

/** The server's refreshed cache, its change event and the run's success, in one statement. */
export async function finishMcpRun(cache: McpCache, outcome: Omit<RunOutcome, 'subjectKind'>): Promise<void> {
  const o = { ...outcome, subjectKind: 'LanguageTool' as const }
  await closeRun(
    o,
    db
      .updateTable('LanguageTool')
      .set((eb) => ({
        phase: 'Ready',
        health: cache.health,
        toolSchemas: sql`${json(cache.toolSchemas)}::json`,
        detectedTransport: cache.detectedTransport,
        detectedUrl: cache.detectedUrl,
        compliance: eb.fn.coalesce(sql`${json(cache.compliance)}::jsonb`, eb.ref('compliance')),
        serverInfo: sql`${json(cache.serverInfo)}::jsonb`,
        lastIntrospectedAt: cache.lastIntrospectedAt,
        lastError: null,
      }))
      .where('id', '=', o.subjectId),
  )
}

export interface ImageCache {
  imageTools: unknown
  imageDigest: string | null
  imageToolsUpdatedAt: Date
}

/** The agent's (or unit's) refreshed image tools, its change event and the run's success, in one statement. */
export async function finishImageRun(cache: ImageCache, outcome: RunOutcome & { subjectKind: 'Agent' | 'Unit' }): Promise<void> {
  await closeRun(
    outcome,
    db
      .updateTable(imageTable(outcome.subjectKind))
      .set({
        imageTools: sql`${json(cache.imageTools)}::json`,
        imageDigest: cache.imageDigest,
        imageToolsSource: 'introspection',
        imageToolsUpdatedAt: cache.imageToolsUpdatedAt,
      })
      .where('id', '=', outcome.subjectId),
  )
}
