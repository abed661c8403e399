// One client at a time against the bench server, with the bench admin token: answers per second and
// p50/p99 latency. Any failed request fails the benchmark, so the figures are never of error pages.
import autocannon from 'autocannon'
import { AUTH_HEADERS } from './bench-auth.mjs'

/** `paths` are sent one after another: answers/s counts the whole set, p50 and p99 one HTTP request. */
export async function oneClientLoad(base, title, paths, seconds) {
  const requests = paths.map((path) => ({ method: 'GET', path }))
  const result = await autocannon({ url: base, connections: 1, duration: seconds, headers: AUTH_HEADERS, requests, pipelining: 1 })
  const bad = result.non2xx + result.errors + result.timeouts
  if (bad > 0) throw new Error(`${title}: ${bad} failed requests`)
  return { title, rps: result.requests.average / paths.length, p50: result.latency.p50, p99: result.latency.p99, requests: paths.length }
}
