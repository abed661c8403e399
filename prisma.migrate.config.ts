// Config for the Prisma 6.19 CLI (npm alias "prisma-migrate"), used only for migrate/db commands:
// its Wasm schema engine talks to PostgreSQL through a JS driver adapter, so nothing is downloaded.
import './prisma/env'
import fs from 'node:fs'
import os from 'node:os'
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
// Written beside node_modules, or in the temporary directory where the install is read-only (a
// container's read-only root filesystem, the migration Job of deploy/kubernetes).
function writeDerivedSchema(): string {
  for (const dir of [path.join(__dirname, 'node_modules/.prisma-migrate'), path.join(os.tmpdir(), 'toolroom-prisma-migrate')]) {
    try {
      fs.mkdirSync(dir, { recursive: true })
      fs.writeFileSync(path.join(dir, 'schema.prisma'), derived)
      return dir
    } catch (e) {
      if (!['EACCES', 'EROFS', 'EPERM'].includes((e as NodeJS.ErrnoException).code ?? '')) throw e
    }
  }
  throw new Error('nowhere to write the derived schema: node_modules and the temporary directory are read-only')
}
const outDir = writeDerivedSchema()

export default defineConfig({
  experimental: { adapter: true },
  engine: 'js',
  adapter: async () => new MigratePg(process.env.DATABASE_URL!),
  schema: path.join(outDir, 'schema.prisma'),
  migrations: { path: path.join(__dirname, 'prisma/migrations') },
})
