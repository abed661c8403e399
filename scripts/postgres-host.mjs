// Hosts the embedded PostgreSQL of `npm start` in a process group of its own. A Ctrl-C in the
// terminal signals the whole foreground group at once; PostgreSQL would then shut down while the
// workers and the web server still use it, and they would print connection errors on the way out.
// Out of that group it stops when the supervisor says so, after everything that uses it, or when
// the supervisor is gone (its IPC channel closes, even if it was SIGKILLed).
import { startEmbeddedPostgres } from './embedded-postgres.mjs'

const options = JSON.parse(process.argv[2])
let server = null
let stopping = false

async function stop() {
  if (stopping) return
  stopping = true
  await server?.stop()
  process.exit(0)
}

process.on('message', (message) => message === 'stop' && void stop())
process.on('disconnect', () => void stop())
process.on('SIGTERM', () => void stop())

try {
  server = await startEmbeddedPostgres({ ...options, log: (line) => process.send?.({ log: line }) })
  process.send?.({ url: server.url })
} catch (error) {
  process.send?.({ error: error?.message ?? String(error) })
  process.exit(1)
}
