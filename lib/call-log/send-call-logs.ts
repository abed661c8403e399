// Calls leave Toolroom as they happen (docs/design/call-log.md, "Export"): with TOOLROOM_CALL_EXPORT=otlp
// every call the process records is also one OpenTelemetry log record at the configured OTLP endpoint,
// sent once its row is committed, and a call closed later (an approval's outcome) is sent again with
// what changed. Records are the values written to the row, so they are exactly as redacted as the
// call log. This facade imports nothing of OpenTelemetry: the SDK (./call-log-sdk.ts) is loaded at the
// first record of a process that exports, so one that does not pays a comparison per batch.
import 'server-only'
import { config } from '@/lib/config'
import type { CallLogSink, ClosedCall, RecordedCall } from './call-log-types'

const STATE = Symbol.for('toolroom.call-log-export')
const globals = globalThis as unknown as Record<symbol, { sink: Promise<CallLogSink> | null; role: string } | undefined>
const state = (globals[STATE] ??= { sink: null, role: 'web' })

function sink(): Promise<CallLogSink> | null {
  if (config().TOOLROOM_CALL_EXPORT !== 'otlp') return null
  state.sink ??= import('./call-log-sdk').then(({ startCallLogSdk }) => startCallLogSdk(state.role, config().OTEL_SERVICE_NAME))
  return state.sink
}

/** Names the process on its records (`toolroom.role`); call before the first record. */
export function nameCallLogProcess(role: string): void {
  state.role = role
}

/** Sends committed call rows (never throws: a collector that is down must not fail a call). */
export function sendRecordedCalls(records: readonly RecordedCall[]): void {
  void sink()
    ?.then((s) => s.recorded(records))
    .catch((e: Error) => console.warn('[call-log] export failed:', e.message))
}

/** Sends the new outcome of a call recorded earlier. */
export function sendClosedCall(call: ClosedCall): void {
  void sink()
    ?.then((s) => s.closed(call))
    .catch((e: Error) => console.warn('[call-log] export failed:', e.message))
}

/** Sends what is still batched (before the process exits). */
export async function flushCallLogs(): Promise<void> {
  await state.sink?.then((s) => s.shutdown()).catch(() => {})
}
