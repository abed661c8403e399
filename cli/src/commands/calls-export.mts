// `toolroom calls export`: the recorded calls of a time range as NDJSON (one call per line, as
// stored, so as redacted as the call log), streamed from GET /api/v1/calls/export to a file or stdout:
// what a log store or SIEM keeps after Toolroom drops the days past its retention.
import fs from 'node:fs'
import { Readable, Transform } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { apiClient, unwrap } from '../client.mjs'
import type { Connection } from '../config.mjs'
import { EXIT, UsageError } from '../errors.mjs'
import { err } from '../output.mjs'

const UNITS_MS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000 }

/** A time as the API takes it: ISO 8601 with an offset, a UTC day (`2026-11-01`), or a span back from now (`90m`, `24h`, `7d`). */
export function exportTime(value: string, flag: string, now = Date.now()): string {
  const span = /^(\d{1,6})([mhd])$/.exec(value)
  if (span) return new Date(now - Number(span[1]) * UNITS_MS[span[2]]).toISOString()
  if (/^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(`${value}T00:00:00Z`))) return `${value}T00:00:00.000Z`
  if (/^\d{4}-\d{2}-\d{2}T.*(Z|[+-]\d{2}:\d{2})$/.test(value) && !Number.isNaN(Date.parse(value))) return value
  throw new UsageError(
    `${flag} takes a time with its offset (2026-11-01T09:00:00Z), a UTC day (2026-11-01) or a span back from now (90m, 24h, 7d), not "${value}"`,
  )
}

export async function exportCalls(conn: Connection, options: { since?: string; until?: string; file?: string }): Promise<number> {
  if (!options.since) throw new UsageError('--since is required: the start of the calls to export')
  const query = { since: exportTime(options.since, '--since'), ...(options.until ? { until: exportTime(options.until, '--until') } : {}) }
  const body = await unwrap(conn.server, apiClient(conn).GET('/api/v1/calls/export', { params: { query }, parseAs: 'stream' }))
  if (!body) throw new UsageError('the server answered without a body')
  let calls = 0
  const count = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      for (const byte of chunk) if (byte === 0x0a) calls++
      done(null, chunk)
    },
  })
  const source = Readable.fromWeb(body as import('node:stream/web').ReadableStream<Uint8Array>)
  if (options.file) {
    await pipeline(source, count, fs.createWriteStream(options.file, { mode: 0o600 }))
    err(`${calls} calls written to ${options.file}`)
  } else await pipeline(source, count, process.stdout)
  return EXIT.ok
}
