// The OpenTelemetry logs SDK behind ./send-call-logs.ts, loaded only when TOOLROOM_CALL_EXPORT=otlp.
// Records go to OTLP/HTTP in batches (the exporter reads the standard variables:
// OTEL_EXPORTER_OTLP_LOGS_ENDPOINT or OTEL_EXPORTER_OTLP_ENDPOINT, _HEADERS, _TIMEOUT; OTEL_BLRP_* for
// batching). The body is the row as JSON, the shape `toolroom calls export` writes, so a log store
// reads both the same way; the attributes are the few fields a search filters on.
import 'server-only'
import { SeverityNumber } from '@opentelemetry/api-logs'
import { OTLPLogExporter } from '@opentelemetry/exporter-logs-otlp-http'
import { resourceFromAttributes } from '@opentelemetry/resources'
import { BatchLogRecordProcessor, LoggerProvider } from '@opentelemetry/sdk-logs'
import type { CallLogSink, ClosedCall, RecordedCall } from './call-log-types'

// Outcomes an operator looks at first: the call did not do what was asked.
const WARN_OUTCOMES = new Set(['failed', 'denied', 'invalid_arguments', 'rate_limited', 'rejected', 'expired'])

function severity(outcome: string) {
  return WARN_OUTCOMES.has(outcome)
    ? { severityNumber: SeverityNumber.WARN, severityText: 'WARN' }
    : { severityNumber: SeverityNumber.INFO, severityText: 'INFO' }
}

function present(attributes: Record<string, string | number | null | undefined>): Record<string, string | number> {
  const out: Record<string, string | number> = {}
  for (const [k, v] of Object.entries(attributes)) if (v !== null && v !== undefined) out[k] = v
  return out
}

export function startCallLogSdk(role: string, serviceName: string): CallLogSink {
  const provider = new LoggerProvider({
    resource: resourceFromAttributes({ 'service.name': serviceName, 'toolroom.role': role, 'process.pid': process.pid }),
    processors: [new BatchLogRecordProcessor({ exporter: new OTLPLogExporter() })],
  })
  const logger = provider.getLogger('toolroom.calls')
  return {
    recorded(records: readonly RecordedCall[]) {
      for (const r of records)
        logger.emit({
          eventName: 'toolroom.call',
          timestamp: new Date(r.startedAt),
          ...severity(r.outcome),
          body: JSON.stringify(r),
          attributes: present({
            'toolroom.call.id': r.id,
            'toolroom.call.outcome': r.outcome,
            'toolroom.call.channel': r.channel,
            'toolroom.tool.id': r.toolId,
            'toolroom.agent': `${r.agentNamespace}/${r.agentName}`,
            'toolroom.on_behalf_of.issuer': r.onBehalfOfIssuer,
            'toolroom.on_behalf_of.subject': r.onBehalfOfSubject,
          }),
        })
    },
    closed(call: ClosedCall) {
      logger.emit({
        eventName: 'toolroom.call.closed',
        timestamp: call.finishedAt,
        ...severity(call.outcome),
        body: JSON.stringify(call),
        attributes: { 'toolroom.call.id': call.id, 'toolroom.call.outcome': call.outcome },
      })
    },
    shutdown: () => provider.shutdown(),
  }
}
