// Config for the Prisma 6.19 CLI (npm alias "prisma-migrate"), used only for migrate/db commands:
// its Wasm schema engine talks to PostgreSQL through a JS driver adapter, so nothing is downloaded.
import './prisma/env'
import fs from 'node:fs'
import path from 'node:path'
import { defineConfig } from 'prisma-migrate/config'
import { MigratePg } from './prisma/migrate-adapter'

// Prisma 7 forbids `url` in the datasource block and Prisma 6 requires it (ignored with an adapter):
// derive a 6.x-compatible copy of the one schema.
const source = fs.readFileSync(path.join(__dirname, 'prisma/schema.prisma'), 'utf8')
const derived = source
  .replace(/generator\s+\w+\s*\{[^}]*\}/g, '')
  .replace(
    /datasource\s+(\w+)\s*\{/,
    'generator client {\n  provider   = "prisma-client"\n  engineType = "client"\n  output     = "./unused-client"\n}\n\ndatasource $1 {\n  url = env("DATABASE_URL")',
  )
const outDir = path.join(__dirname, 'node_modules/.prisma-migrate')
fs.mkdirSync(outDir, { recursive: true })
fs.writeFileSync(path.join(outDir, 'schema.prisma'), derived)

export default defineConfig({
  experimental: { adapter: true },
  engine: 'js',
  adapter: async () => new MigratePg(process.env.DATABASE_URL!),
  schema: path.join(outDir, 'schema.prisma'),
  migrations: { path: path.join(__dirname, 'prisma/migrations') },
})
