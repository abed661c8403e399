// `toolroom stats`: the 7-day statistics of every call, by day (the default) or by the person the
// calls were made for (docs/design/statistics.md).
import { apiClient, unwrap } from '../client.mjs'
import type { Connection } from '../config.mjs'
import { EXIT, UsageError } from '../errors.mjs'
import { type Format, out, printValue, table } from '../output.mjs'

export const STATS_VIEWS = ['day', 'person'] as const
export type StatsView = (typeof STATS_VIEWS)[number]

const rate = (r: number | null) => (r === null ? null : `${(r * 100).toFixed(1)}%`)

export async function stats(conn: Connection, options: { by: StatsView; limit?: string; output: Format }): Promise<number> {
  const api = apiClient(conn)
  if (options.by === 'person') {
    const limit = options.limit === undefined ? undefined : Number(options.limit)
    if (limit !== undefined && (!Number.isInteger(limit) || limit < 1)) throw new UsageError(`--limit takes a whole number above 0, not "${options.limit}"`)
    const answer = await unwrap(conn.server, api.GET('/api/v1/stats/people', { params: { query: limit === undefined ? {} : { limit } } }))
    if (options.output !== 'table') {
      printValue(answer, options.output)
      return EXIT.ok
    }
    out(
      table(
        ['person', 'subject', 'issuer', 'calls', 'failures', 'failure rate', 'refused', 'agents'],
        answer.items.map((p) => [
          p.onBehalfOf?.displayName ?? '(no person)',
          p.onBehalfOf?.subject,
          p.onBehalfOf?.issuer,
          p.calls,
          p.failures,
          rate(p.failureRate),
          p.refused,
          p.agents,
        ]),
      ),
    )
    if (answer.total > answer.items.length) out(`(the ${answer.items.length} with the most calls of ${answer.total}; --limit shows more)`)
    return EXIT.ok
  }
  if (options.limit !== undefined) throw new UsageError('--limit goes with --by person')
  const answer = await unwrap(conn.server, api.GET('/api/v1/stats/overview'))
  if (options.output !== 'table') {
    printValue(answer, options.output)
    return EXIT.ok
  }
  const row = (label: string, p: (typeof answer)['totals']) => [label, p.calls, p.failures, rate(p.failureRate), p.refused, p.p50Ms, p.p95Ms]
  out(
    table(
      ['day', 'calls', 'failures', 'failure rate', 'refused', 'p50 ms', 'p95 ms'],
      [...answer.byDay.map((d) => row(d.day, d)), row('7 days', answer.totals)],
    ),
  )
  return EXIT.ok
}
