// Stopping an HTTP server so that a stop is quick and loses nothing: no new connections, answers in
// flight finish, and keep-alive connections close as soon as they are idle. Node's close() drops only
// the connections idle at the moment it is called; one whose answer was still being written becomes
// idle a moment later and then holds the close open until its client or its keep-alive timeout ends
// it (the gateway's stop took 2 s instead of 0.3 s, one start-and-stop in six: BENCHMARKS.md,
// "Start and stop").
import type http from 'node:http'

/** How often connections that became idle since close() are dropped. */
const SWEEP_MS = 25

/** Resolves once every connection has ended. */
export function closeServer(server: http.Server): Promise<void> {
  return new Promise((resolve) => {
    const sweep = setInterval(() => server.closeIdleConnections(), SWEEP_MS)
    sweep.unref()
    server.close(() => {
      clearInterval(sweep)
      resolve()
    })
  })
}
