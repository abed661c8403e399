// Tracing, on only when OTEL_EXPORTER_OTLP_ENDPOINT is set. This module is the facade every caller
// uses; it imports nothing of OpenTelemetry. startTracing() loads the SDK (./tracing-sdk.ts) then, so a
// process without an endpoint never loads it, and each function below is a plain call of `fn` (or an
// empty answer): off, tracing costs a function call (BENCHMARKS.md, "Gateway", measured with
// bench:gateway).
//
// Spans: one per REST request and per /mcp request (continuing the caller's `traceparent`), one per
// gateway call with a child per pipeline step and per upstream attempt, one per job (continuing the
// enqueuer's trace; an approved call's execution links to the call that asked for it), and the
// database's (Prisma's instrumentation, and the gateway's call-record writes). Upstream REST and MCP
// requests carry the W3C `traceparent` of their attempt (withTraceContext).
import 'server-only'
import { type Config, config } from '@/lib/config'
import type { SpanHandle, SpanOptions, TracingImpl } from './tracing-types'

type TracingConfig = Pick<Config, 'OTEL_EXPORTER_OTLP_ENDPOINT' | 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT' | 'OTEL_SDK_DISABLED' | 'OTEL_SERVICE_NAME'>

export type { SpanAttributes, SpanHandle, SpanOptions, TracingImpl } from './tracing-types'

const STATE = Symbol.for('toolroom.tracing')
const globals = globalThis as unknown as Record<symbol, { impl: TracingImpl | null } | undefined>
const state = (globals[STATE] ??= { impl: null })

const NOOP_SPAN: SpanHandle = { setAttributes() {}, fail() {} }

/** Runs `fn` inside a span named `name` (a child of the active span unless `options.parent` says otherwise). */
export function withSpan<T>(name: string, options: SpanOptions, fn: (span: SpanHandle) => T): T {
  return state.impl ? state.impl.withSpan(name, options, fn) : fn(NOOP_SPAN)
}

/**
 * `headers` plus the W3C trace context (`traceparent`, `tracestate`) of the active span, for a request
 * to an upstream (REST endpoint, MCP server) or anything else that should continue the trace. Off, or
 * outside any span, `headers` as they are.
 */
export function withTraceContext<H extends Record<string, string>>(headers: H): H {
  if (!state.impl) return headers
  const trace = state.impl.traceHeaders()
  return 'traceparent' in trace ? { ...headers, ...trace } : headers
}

/** The active span's W3C traceparent (to store with work that continues later), or null. */
export function currentTraceparent(): string | null {
  return state.impl?.traceHeaders().traceparent ?? null
}

/** The active trace and span ids, for log lines; null when off or outside any span. */
export function activeTraceIds(): { traceId: string; spanId: string } | null {
  return state.impl ? state.impl.activeTraceIds() : null
}

/** The endpoint tracing exports to, or null (off). */
export function tracingEndpoint(from: TracingConfig = config()): string | null {
  return from.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ?? from.OTEL_EXPORTER_OTLP_ENDPOINT ?? null
}

/**
 * Starts tracing when OTEL_EXPORTER_OTLP_ENDPOINT (or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) is set:
 * loads the SDK and registers it. Call once, first thing in a process. Resolves with whether it is on.
 */
export async function startTracing(role: string, from: TracingConfig = config()): Promise<boolean> {
  if (state.impl) return true
  // The SDK's own reading of OTEL_SDK_DISABLED: "true" in any case.
  if (!tracingEndpoint(from) || from.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return false
  const { startTracingSdk } = await import('./tracing-sdk')
  state.impl = startTracingSdk(role, from.OTEL_SERVICE_NAME)
  return true
}

/** Sends the spans still buffered (before the process exits). */
export async function stopTracing(): Promise<void> {
  await state.impl?.shutdown().catch(() => {})
}
