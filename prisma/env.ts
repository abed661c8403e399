// Shared by both Prisma configs: the embedded database is the default when DATABASE_URL is unset.
import 'dotenv/config'
import { embeddedDatabaseUrl } from '../scripts/embedded-db-url.mjs'

process.env.DATABASE_URL ||= embeddedDatabaseUrl()
process.env.CHECKPOINT_DISABLE ??= '1'
