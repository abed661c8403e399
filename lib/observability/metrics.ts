// Every Prometheus metric Toolroom exposes, named in this one place, on one prom-client registry per
// process (kept on globalThis: Next.js may load this module more than once). Each process serves it
// on its own metrics port (./metrics-server.ts), never on the public port: the labels name tools and
// namespaces. Callers record with the small functions below, so the code they instrument changes by
// a line. Label values that come from a caller (tool names) are only ever names the registry knows:
// a call of an unknown tool is counted under "(unknown)", so no client can grow the series without bound.
import 'server-only'
import type pg from 'pg'
import client from 'prom-client'

export type ProcessRole = 'web' | 'gateway' | 'worker'

interface MetricsState {
  registry: client.Registry
  role: ProcessRole | null
  metrics: ReturnType<typeof createMetrics> | null
  pools: Map<string, PoolLike>
  /** Figures read from the database at scrape time (the worker registers them). */
  databaseGauges: (() => Promise<DatabaseFigures>) | null
}

type PoolLike = Pick<pg.Pool, 'totalCount' | 'idleCount' | 'waitingCount'> & { options?: { max?: number } }

export interface DatabaseFigures {
  approvalsPending: number
  oldestPendingApprovalSeconds: number
  /** Jobs waiting (created or retry) per queue. */
  queueDepth: Record<string, number>
}

const STATE = Symbol.for('toolroom.metrics')
const globals = globalThis as unknown as Record<symbol, MetricsState | undefined>
const state: MetricsState = (globals[STATE] ??= { registry: new client.Registry(), role: null, metrics: null, pools: new Map(), databaseGauges: null })

/** Latency buckets in seconds, from 1 ms (the gateway's own work) to 2 minutes (slow upstreams). */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120]
/** Approvals are decided in seconds to hours. */
const DECISION_BUCKETS = [1, 5, 15, 30, 60, 300, 900, 1800, 3600, 4 * 3600, 12 * 3600, 24 * 3600]

export const UNKNOWN_TOOL = '(unknown)'

function createMetrics(registry: client.Registry) {
  const r = [registry]
  return {
    gatewayCalls: new client.Counter({
      name: 'toolroom_gateway_calls_total',
      help: 'Tool calls the gateway answered, by tool, calling agent namespace, outcome and channel',
      labelNames: ['tool', 'agent_namespace', 'outcome', 'channel'],
      registers: r,
    }),
    gatewayCallSeconds: new client.Histogram({
      name: 'toolroom_gateway_call_duration_seconds',
      help: 'Whole tool calls as the gateway answered them, upstream time included',
      labelNames: ['outcome'],
      buckets: LATENCY_BUCKETS,
      registers: r,
    }),
    gatewayOverheadSeconds: new client.Histogram({
      name: 'toolroom_gateway_overhead_duration_seconds',
      help: "The gateway's own share of each call: the whole call less the time spent waiting for upstreams",
      labelNames: ['outcome'],
      buckets: LATENCY_BUCKETS,
      registers: r,
    }),
    upstreamSeconds: new client.Histogram({
      name: 'toolroom_gateway_upstream_duration_seconds',
      help: 'Each attempt at an upstream (REST endpoint or MCP server), by executor and result',
      labelNames: ['executor', 'result'],
      buckets: LATENCY_BUCKETS,
      registers: r,
    }),
    rateLimited: new client.Counter({
      name: 'toolroom_gateway_rate_limited_total',
      help: 'Calls refused by a rate limit, by what the limit applies to (tool, agent or a policy rule) and its window',
      labelNames: ['applies_to', 'window'],
      registers: r,
    }),
    approvalDecisionSeconds: new client.Histogram({
      name: 'toolroom_approval_time_to_decision_seconds',
      help: 'From the request to the approver’s decision',
      labelNames: ['decision'],
      buckets: DECISION_BUCKETS,
      registers: r,
    }),
    approvalsPending: new client.Gauge({
      name: 'toolroom_approvals_pending',
      help: 'Approval requests waiting for a decision (read from the database at scrape time, by workers)',
      registers: r,
      async collect() {
        const figures = await databaseFigures()
        if (figures) this.set(figures.approvalsPending)
      },
    }),
    approvalOldestSeconds: new client.Gauge({
      name: 'toolroom_approvals_oldest_pending_age_seconds',
      help: 'Age of the oldest approval request still waiting (0 when none waits)',
      registers: r,
      async collect() {
        const figures = await databaseFigures()
        if (figures) this.set(figures.oldestPendingApprovalSeconds)
      },
    }),
    queueDepth: new client.Gauge({
      name: 'toolroom_job_queue_depth',
      help: 'Jobs waiting to run, per queue (read from the database at scrape time, by workers)',
      labelNames: ['job'],
      registers: r,
      async collect() {
        const figures = await databaseFigures()
        if (!figures) return
        this.reset()
        for (const [job, depth] of Object.entries(figures.queueDepth)) this.set({ job }, depth)
      },
    }),
    jobs: new client.Counter({
      name: 'toolroom_jobs_total',
      help: 'Jobs a worker finished, by job and result (completed, failed; a failed job with retries left runs again)',
      labelNames: ['job', 'result'],
      registers: r,
    }),
    jobRetries: new client.Counter({
      name: 'toolroom_job_retries_total',
      help: 'Jobs started again after a failure or after their worker died, by job',
      labelNames: ['job'],
      registers: r,
    }),
    jobSeconds: new client.Histogram({
      name: 'toolroom_job_duration_seconds',
      help: 'How long each job ran, by job',
      labelNames: ['job'],
      buckets: LATENCY_BUCKETS,
      registers: r,
    }),
    discoveryRuns: new client.Counter({
      name: 'toolroom_discovery_runs_total',
      help: 'Discovery runs, by subject (image or mcp) and outcome',
      labelNames: ['subject', 'outcome'],
      registers: r,
    }),
    cacheLookups: new client.Counter({
      name: 'toolroom_cache_lookups_total',
      help: 'Lookups of the per-process caches, by cache and result (hit or miss)',
      labelNames: ['cache', 'result'],
      registers: r,
    }),
    httpRequests: new client.Histogram({
      name: 'toolroom_http_request_duration_seconds',
      help: 'REST API requests, by route, method and status',
      labelNames: ['route', 'method', 'status'],
      buckets: LATENCY_BUCKETS,
      registers: r,
    }),
    callPartitions: new client.Gauge({
      name: 'toolroom_call_partitions',
      help: "Days (partitions) the call log holds, as the worker's last upkeep left it",
      registers: r,
    }),
    callPartitionsKept: new client.Gauge({
      name: 'toolroom_call_partitions_kept',
      help: 'Days past TOOLROOM_CALL_RETENTION_DAYS the last upkeep kept because they hold calls waiting for approval',
      registers: r,
    }),
    callPartitionsDropped: new client.Counter({
      name: 'toolroom_call_partitions_dropped_total',
      help: 'Days of the call log dropped whole past TOOLROOM_CALL_RETENTION_DAYS',
      registers: r,
    }),
    dbPoolConnections: new client.Gauge({
      name: 'toolroom_db_pool_connections',
      help: 'Database pool connections of this process, by pool and state (total, idle, waiting: requests waiting for one; max)',
      labelNames: ['pool', 'state'],
      registers: r,
      collect() {
        this.reset()
        for (const [pool, p] of state.pools) {
          this.set({ pool, state: 'total' }, p.totalCount)
          this.set({ pool, state: 'idle' }, p.idleCount)
          this.set({ pool, state: 'waiting' }, p.waitingCount)
          if (p.options?.max) this.set({ pool, state: 'max' }, p.options.max)
        }
      },
    }),
  }
}

/** Scrapes run these queries at most every few seconds, however many scrapers ask. */
const FIGURES_TTL_MS = 5_000
let figuresCache: { at: number; value: Promise<DatabaseFigures | null> } | null = null
function databaseFigures(): Promise<DatabaseFigures | null> {
  if (!state.databaseGauges) return Promise.resolve(null)
  if (figuresCache && Date.now() - figuresCache.at < FIGURES_TTL_MS) return figuresCache.value
  const value = state.databaseGauges().catch(() => null)
  figuresCache = { at: Date.now(), value }
  return value
}

function metrics() {
  state.metrics ??= createMetrics(state.registry)
  return state.metrics
}

/**
 * Names this process (a `role` label on every series) and starts the process metrics (CPU, memory,
 * event loop lag, handles, GC). Idempotent.
 */
export function initMetrics(role: ProcessRole): client.Registry {
  if (state.role) return state.registry
  state.role = role
  state.registry.setDefaultLabels({ role })
  client.collectDefaultMetrics({ register: state.registry })
  metrics()
  return state.registry
}

export function metricsRegistry(): client.Registry {
  metrics()
  return state.registry
}

/** What a call record says, for the call metrics. */
export interface CallObservation {
  toolId: string
  /** Whether the tool is one the registry knows (a resolved tool); otherwise it is counted as "(unknown)". */
  known: boolean
  agentNamespace: string
  outcome: string
  channel: string
  latencyMs: number | null
  errorCode: string | null
}

/** One answered call (every outcome), with the time its upstream attempts took. */
export function observeCall(call: CallObservation, upstreamMs: number): void {
  const m = metrics()
  m.gatewayCalls.inc({ tool: call.known ? call.toolId : UNKNOWN_TOOL, agent_namespace: call.agentNamespace, outcome: call.outcome, channel: call.channel })
  if (call.latencyMs !== null) {
    m.gatewayCallSeconds.observe({ outcome: call.outcome }, call.latencyMs / 1000)
    m.gatewayOverheadSeconds.observe({ outcome: call.outcome }, Math.max(0, call.latencyMs - upstreamMs) / 1000)
  }
  const limit = call.outcome === 'rate_limited' ? /^rate_limit_(tool|agent)_(minute|day)$/.exec(call.errorCode ?? '') : null
  if (limit) m.rateLimited.inc({ applies_to: limit[1], window: limit[2] })
}

export function observeUpstreamAttempt(executor: string, seconds: number, ok: boolean): void {
  metrics().upstreamSeconds.observe({ executor, result: ok ? 'ok' : 'error' }, seconds)
}

export function observeApprovalDecision(decision: 'approve' | 'deny', requestedAt: Date, decidedAt: Date): void {
  metrics().approvalDecisionSeconds.observe(
    { decision: decision === 'approve' ? 'approved' : 'denied' },
    Math.max(0, (decidedAt.getTime() - requestedAt.getTime()) / 1000),
  )
}

export function observeJob(job: string, result: 'completed' | 'failed', seconds: number, attempt: number): void {
  const m = metrics()
  m.jobs.inc({ job, result })
  m.jobSeconds.observe({ job }, seconds)
  if (attempt > 1) m.jobRetries.inc({ job })
}

export function observeCallPartitions(upkeep: { partitions: number; kept: number; dropped: number }): void {
  const m = metrics()
  m.callPartitions.set(upkeep.partitions)
  m.callPartitionsKept.set(upkeep.kept)
  m.callPartitionsDropped.inc(upkeep.dropped)
}

export function countDiscoveryRun(subject: 'image' | 'mcp', outcome: string): void {
  metrics().discoveryRuns.inc({ subject, outcome })
}

export function countCacheLookup(cache: 'effective_tools_answer' | 'agent_tools' | 'agent_credential' | 'api_token' | 'conditional_read', hit: boolean): void {
  metrics().cacheLookups.inc({ cache, result: hit ? 'hit' : 'miss' })
}

export function observeHttpRequest(route: string, method: string, status: number, seconds: number): void {
  metrics().httpRequests.observe({ route, method, status: String(status) }, seconds)
}

/** A pg pool whose connections the metrics report (the Prisma adapter's, the gateway's pool for rate counts and call records). */
export function trackPool(name: string, pool: PoolLike): void {
  state.pools.set(name, pool)
}

/** Registers the database-derived gauges (approvals waiting, queue depth); one process role (workers) reads them. */
export function readDatabaseFiguresWith(read: () => Promise<DatabaseFigures>): void {
  state.databaseGauges = read
}
