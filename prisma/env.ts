// Shared by both Prisma configs: the embedded database is the default when DATABASE_URL is unset.
import 'dotenv/config'
import { EMBEDDED_DATABASE_URL } from '../scripts/embedded-db-url.mjs'

process.env.DATABASE_URL ||= EMBEDDED_DATABASE_URL
process.env.CHECKPOINT_DISABLE ??= '1'
