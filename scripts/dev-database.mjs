// A PostgreSQL of its own for development chores (`npm run db:diff`, trying queries): starts the
// embedded server in `.data/pg17-dev` (port TOOLROOM_DEV_PG_PORT, default 55660), prints its URL and
// keeps it running until Ctrl-C.
import path from 'node:path'
import { startEmbeddedPostgres } from './embedded-postgres.mjs'

const port = Number(process.env.TOOLROOM_DEV_PG_PORT ?? 55660)
const server = await startEmbeddedPostgres({ dataDir: path.resolve('.data/pg17-dev'), port, database: 'toolroom_dev', log: console.log })
console.log(server.url)
const stop = async () => {
  await server.stop()
  process.exit(0)
}
process.on('SIGINT', stop)
process.on('SIGTERM', stop)
