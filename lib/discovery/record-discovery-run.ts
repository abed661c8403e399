// The bookkeeping of a discovery run in as few statements as possible: every discovery reads its
// subject, opens a run and closes it with the refreshed cache and its change event. Through the Prisma
// query builder that was six or seven round trips and a sixth of a worker's CPU; here it is one
// statement to start and one to finish (atomic: data-modifying CTEs of one statement commit together).
import 'server-only'
import type { DiscoveryTrigger } from './discovery-states'
import { randomUUID } from 'node:crypto'
import { Prisma } from '@/lib/generated/prisma/client'
import { prisma } from '@/lib/db'

const json = (value: unknown) => (value === undefined || value === null ? null : JSON.stringify(value))

/** The refusals of the subject's last successful run, as a column of a query whose subject is `subject`. */
const lastRefused = (kind: string) => Prisma.sql`(
  SELECT previous.details->'refused' FROM "DiscoveryRun" previous
  WHERE previous."subjectKind" = ${kind} AND previous."subjectId" = subject.id AND previous.status = 'succeeded'
  ORDER BY previous."startedAt" DESC LIMIT 1
) AS "lastRefused"`

export interface McpSubjectRow {
  id: string
  namespace: string
  name: string
  spec: unknown
  toolSchemas: unknown
  compliance: unknown
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
function closeAbandonedRuns(subjectId: string): Prisma.Sql {
  return Prisma.sql`
      UPDATE "DiscoveryRun" SET status = 'failed', "finishedAt" = now(),
        error = 'abandoned: the worker stopped before this run finished; the next run replaced it'
      WHERE "subjectId" = ${subjectId}::uuid AND status = 'running'`
}

export async function startMcpRun(id: string, trigger: DiscoveryTrigger, attempt: number): Promise<McpSubjectRow | null> {
  const rows = await prisma.$queryRaw<McpSubjectRow[]>`
    WITH subject AS (
      SELECT id, namespace, name, spec, "toolSchemas", compliance FROM "LanguageTool" WHERE id = ${id}::uuid
    ), abandoned AS (${closeAbandonedRuns(id)}
    ), run AS (
      INSERT INTO "DiscoveryRun" (id, "subjectKind", "subjectId", namespace, name, trigger, status, attempt)
      SELECT ${randomUUID()}::uuid, 'LanguageTool', id, namespace, name, ${trigger}, 'running', ${attempt} FROM subject
      RETURNING id
    )
    SELECT subject.*, run.id AS "runId", ${lastRefused('LanguageTool')} FROM subject, run`
  return rows[0] ?? null
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

const imageTable = (kind: 'Agent' | 'Unit') => Prisma.raw(kind === 'Agent' ? '"Agent"' : '"Unit"')

export async function readImageSubject(kind: 'Agent' | 'Unit', id: string): Promise<ImageSubjectRow | null> {
  const rows = await prisma.$queryRaw<ImageSubjectRow[]>`
    SELECT id, namespace, name, spec, "imageTools", ${lastRefused(kind)} FROM ${imageTable(kind)} subject WHERE id = ${id}::uuid`
  return rows[0] ?? null
}

export async function startImageRun(
  kind: 'Agent' | 'Unit',
  row: ImageSubjectRow,
  trigger: DiscoveryTrigger,
  attempt: number,
  digest: string | null,
): Promise<string> {
  const runId = randomUUID()
  await prisma.$executeRaw`
    WITH abandoned AS (${closeAbandonedRuns(row.id)})
    INSERT INTO "DiscoveryRun" (id, "subjectKind", "subjectId", namespace, name, trigger, status, attempt, digest)
    VALUES (${runId}::uuid, ${kind}, ${row.id}::uuid, ${row.namespace}, ${row.name}, ${trigger}, 'running', ${attempt}, ${digest})`
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

/** The change event (when there is one) and the run's close, as CTEs after the subject's update. */
function changeAndRunClose(o: RunOutcome): Prisma.Sql {
  const change = o.change
    ? Prisma.sql`, change AS (
        INSERT INTO "SurfaceChange" (id, "subjectKind", "subjectId", namespace, name, "runId", diff, status, proposed)
        VALUES (${randomUUID()}::uuid, ${o.subjectKind}, ${o.subjectId}::uuid, ${o.namespace}, ${o.name}, ${o.runId}::uuid, ${json(o.change.diff)}::json, ${o.change.status}, ${json(o.change.proposed)}::json)
      )`
    : Prisma.empty
  return Prisma.sql`${change}, run AS (
      UPDATE "DiscoveryRun" SET status = 'succeeded', "finishedAt" = ${o.finishedAt}::timestamptz, "toolCount" = ${o.toolCount}, details = ${json(o.details)}::jsonb
      WHERE id = ${o.runId}::uuid
    )`
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
  await prisma.$executeRaw`
    WITH subject AS (
      UPDATE "LanguageTool" SET phase = 'Ready', health = ${cache.health}, "toolSchemas" = ${json(cache.toolSchemas)}::json,
        "detectedTransport" = ${cache.detectedTransport}, "detectedUrl" = ${cache.detectedUrl}, compliance = COALESCE(${json(cache.compliance)}::jsonb, compliance),
        "serverInfo" = ${json(cache.serverInfo)}::jsonb, "lastIntrospectedAt" = ${cache.lastIntrospectedAt}::timestamptz, "lastError" = NULL
      WHERE id = ${o.subjectId}::uuid
    )${changeAndRunClose(o)}
    SELECT 1`
}

export interface ImageCache {
  imageTools: unknown
  imageDigest: string | null
  imageToolsUpdatedAt: Date
}

/** The agent's (or unit's) refreshed image tools, its change event and the run's success, in one statement. */
export async function finishImageRun(cache: ImageCache, outcome: RunOutcome & { subjectKind: 'Agent' | 'Unit' }): Promise<void> {
  await prisma.$executeRaw`
    WITH subject AS (
      UPDATE ${imageTable(outcome.subjectKind)} SET "imageTools" = ${json(cache.imageTools)}::json, "imageDigest" = ${cache.imageDigest},
        "imageToolsSource" = 'introspection', "imageToolsUpdatedAt" = ${cache.imageToolsUpdatedAt}::timestamptz
      WHERE id = ${outcome.subjectId}::uuid
    )${changeAndRunClose(outcome)}
    SELECT 1`
}
