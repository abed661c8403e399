// How `npm start` waits for a server to answer its health check. Each try is a request on a
// connection of its own that the server closes after answering (`Connection: close`): the start
// script keeps nothing open in the servers it will stop. A keep-alive connection still open in a
// server when it stops (fetch's pool keeps one for seconds) can hold the stop open until its client
// lets it go: Node's close(), which Next.js's stop calls, drops only the connections idle at that
// moment (BENCHMARKS.md, "Start and stop").
import http from 'node:http'

/** A try that gets no answer within this long counts as "not yet", and goes again (a server that hung on one request). */
const TRY_TIMEOUT_MS = 30_000

/** One request on a connection of its own: resolves with whether `url` answered 2xx (never rejects). */
export function askOnce(url) {
  return new Promise((resolve) => {
    const request = http.get(url, { agent: false, headers: { connection: 'close' }, timeout: TRY_TIMEOUT_MS }, (response) => {
      response.resume()
      response.once('end', () => resolve(response.statusCode >= 200 && response.statusCode < 300))
      response.once('error', () => resolve(false))
    })
    request.once('timeout', () => request.destroy())
    request.once('error', () => resolve(false))
  })
}

/**
 * Resolves once `url` answers 2xx; tries again every `everyMs` while nothing listens or the answer is
 * another status. Often ready waits on this, and a refused connection costs next to nothing.
 */
export async function waitHealthy(url, { everyMs = 25 } = {}) {
  while (!(await askOnce(url))) await new Promise((resolve) => setTimeout(resolve, everyMs))
}
