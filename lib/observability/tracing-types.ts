// What the tracing facade (./tracing.ts) and the SDK behind it (./tracing-sdk.ts) share: the facade
// loads the SDK, so the SDK reads these from here rather than from the facade.
export type SpanAttributes = Record<string, string | number | boolean | undefined>

/** What a traced function may do with its span; a no-op object when tracing is off. */
export interface SpanHandle {
  setAttributes(attributes: SpanAttributes): void
  /** Marks the span failed, with the error's message. */
  fail(error: unknown): void
}

export interface SpanOptions {
  attributes?: SpanAttributes
  /** `server` for a request received, `client` for one sent, `consumer` for a job; `internal` otherwise. */
  kind?: 'internal' | 'server' | 'client' | 'consumer' | 'producer'
  /** Continue this trace (a W3C traceparent, and its tracestate) instead of the active one. */
  parent?: { traceparent?: string | null; tracestate?: string | null }
  /** Other spans this one follows from (W3C traceparents), e.g. the call an approved execution runs. */
  links?: Array<string | null | undefined>
}

export interface TracingImpl {
  withSpan<T>(name: string, options: SpanOptions, fn: (span: SpanHandle) => T): T
  traceHeaders(): Record<string, string>
  activeTraceIds(): { traceId: string; spanId: string } | null
  shutdown(): Promise<void>
}
