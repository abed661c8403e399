import './prisma/env'
import path from 'node:path'
import { defineConfig } from 'prisma/config'

// `prisma generate` never runs the native schema engine but insists on downloading it, which this
// offline setup cannot do; pointing the override at any existing file skips the download.
process.env.PRISMA_SCHEMA_ENGINE_BINARY ??= path.resolve(__dirname, 'scripts/no-schema-engine.sh')

export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
})
