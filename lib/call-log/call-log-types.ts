// What the call-log export sends, apart from the SDK so the facade stays free of OpenTelemetry.

/**
 * A call row as committed (the gateway's CallRecord after `storable`: what PostgreSQL holds). Only
 * the fields the attributes name are spelled out; the body is the whole row.
 */
export interface RecordedCall {
  id: string
  startedAt: Date
  outcome: string
  channel: string
  toolId: string
  agentNamespace: string
  agentName: string
  onBehalfOfIssuer?: string | null
  onBehalfOfSubject?: string | null
}

/** A call recorded earlier and closed after its approval's decision: its id and what changed. */
export interface ClosedCall {
  id: string
  outcome: string
  errorCode: string | null
  errorMessage: string | null
  upstreamExcerpt: string | null
  latencyMs: number | null
  attempts: number
  result: unknown
  finishedAt: Date
}

export interface CallLogSink {
  recorded(records: readonly RecordedCall[]): void
  closed(call: ClosedCall): void
  shutdown(): Promise<void>
}
