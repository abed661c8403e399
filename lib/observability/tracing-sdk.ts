// The OpenTelemetry SDK behind ./tracing.ts, loaded only when tracing is on. Spans go to the OTLP/HTTP
// endpoint of OTEL_EXPORTER_OTLP_ENDPOINT in batches (the exporter reads the standard OTEL_* variables:
// headers, timeouts, OTEL_BSP_* batching); the service is OTEL_SERVICE_NAME (lib/config.ts), with the
// process role as `toolroom.role`. Context follows async calls (AsyncLocalStorage); W3C trace context
// is what goes over the wire.
import 'server-only'
import { context, propagation, ROOT_CONTEXT, type Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api'
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http'
import { resourceFromAttributes } from '@opentelemetry/resources'
import { BatchSpanProcessor, NodeTracerProvider } from '@opentelemetry/sdk-trace-node'
import { PrismaInstrumentation } from '@prisma/instrumentation'
import type { SpanAttributes, SpanHandle, TracingImpl } from './tracing-types'

const KINDS = { internal: SpanKind.INTERNAL, server: SpanKind.SERVER, client: SpanKind.CLIENT, consumer: SpanKind.CONSUMER, producer: SpanKind.PRODUCER }

function clean(attributes: SpanAttributes | undefined): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {}
  for (const [k, v] of Object.entries(attributes ?? {})) if (v !== undefined) out[k] = v
  return out
}

function contextOf(traceparent: string, tracestate?: string | null) {
  return propagation.extract(ROOT_CONTEXT, { traceparent, ...(tracestate ? { tracestate } : {}) })
}

function handle(span: Span): SpanHandle {
  return {
    setAttributes: (attributes) => span.setAttributes(clean(attributes)),
    fail(error) {
      const message = error instanceof Error ? error.message : String(error)
      span.setStatus({ code: SpanStatusCode.ERROR, message: message.slice(0, 500) })
    },
  }
}

export function startTracingSdk(role: string, serviceName: string): TracingImpl {
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': serviceName, 'toolroom.role': role, 'process.pid': process.pid }),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter())],
  })
  provider.register()
  // Database spans: every Prisma query (with its SQL), in every process that uses the Prisma client.
  new PrismaInstrumentation().enable()
  const tracer = trace.getTracer('toolroom')

  return {
    withSpan(name, options, fn) {
      const parent = options.parent?.traceparent ? contextOf(options.parent.traceparent, options.parent.tracestate) : context.active()
      const links = (options.links ?? [])
        .map((tp) => (tp ? trace.getSpanContext(contextOf(tp)) : undefined))
        .filter((c): c is NonNullable<typeof c> => c !== undefined)
        .map((c) => ({ context: c }))
      return tracer.startActiveSpan(name, { kind: KINDS[options.kind ?? 'internal'], attributes: clean(options.attributes), links }, parent, (span) => {
        const h = handle(span)
        let result: ReturnType<typeof fn>
        try {
          result = fn(h)
        } catch (e) {
          h.fail(e)
          span.end()
          throw e
        }
        if (result instanceof Promise) {
          return result.then(
            (value) => {
              span.end()
              return value
            },
            (e) => {
              h.fail(e)
              span.end()
              throw e
            },
          ) as typeof result
        }
        span.end()
        return result
      })
    },
    traceHeaders() {
      const carrier: Record<string, string> = {}
      propagation.inject(context.active(), carrier)
      return carrier
    },
    activeTraceIds() {
      const c = trace.getSpanContext(context.active())
      return c ? { traceId: c.traceId, spanId: c.spanId } : null
    },
    shutdown: () => provider.shutdown(),
  }
}
