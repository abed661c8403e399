// `npm run build:server` (part of `npm run build`): compiles the processes that run beside the web app
// (the gateway, the worker, and the scripts production needs) into plain JavaScript under dist/, so
// production runs them with `node dist/<name>.cjs` and no TypeScript loader. esbuild bundles our own
// sources (the `@/` alias included) and leaves every npm package external: they are loaded from
// node_modules at run time, as the web app loads them. `--if-stale` builds only when a source changed
// since the last build (what `npm start` and `npm test` use).
import fs from 'node:fs'
import path from 'node:path'
import { sourceFingerprint } from './source-fingerprint.mjs'

export const SERVER_DIST = 'dist'

/** What production runs with plain `node`: dist/<key>.cjs is built from the file named. */
export const SERVER_ENTRIES = {
  gateway: 'scripts/gateway.ts',
  worker: 'workers/main.ts',
  'seed-demo': 'scripts/seed-demo.ts',
  'demo-traffic': 'scripts/demo-traffic.ts',
  'ensure-admin-token': 'scripts/ensure-admin-token.ts',
  'create-admin': 'scripts/create-admin.ts',
  'reencrypt-secrets': 'scripts/reencrypt-secrets.ts',
  'stats-rollup': 'scripts/stats-rollup.ts',
  migrate: 'scripts/migrate.ts',
  // What `npm start` writes before it is ready (the migrations, the admin token, the demo fleet), in one process.
  'prepare-data': 'scripts/prepare-data.ts',
  // Preloaded into Next.js (`node -r ./dist/web-preload.cjs …/next start`): JSON logs and masking from its first line.
  'web-preload': 'scripts/web-preload.ts',
  // The configuration, for `npm start` (plain JavaScript, which cannot load lib/config.ts itself).
  config: 'lib/config.ts',
}

const INPUTS = ['lib', 'workers', 'scripts', 'prisma/schema.prisma', 'package.json', 'package-lock.json', 'tsconfig.json']
const FINGERPRINT_FILE = path.join(SERVER_DIST, '.fingerprint')

const fingerprint = () => sourceFingerprint(INPUTS, (file) => /\.(ts|mts|mjs|cjs|json|prisma)$/.test(file))

export function serverBuildIsStale() {
  const outputs = Object.keys(SERVER_ENTRIES).map((name) => path.join(SERVER_DIST, `${name}.cjs`))
  if (!outputs.every((f) => fs.existsSync(f)) || !fs.existsSync(FINGERPRINT_FILE)) return true
  return fs.readFileSync(FINGERPRINT_FILE, 'utf8') !== fingerprint()
}

export async function buildServer() {
  // esbuild is a build-time tool (a devDependency): loaded only when something is built.
  const esbuild = await import('esbuild')
  const before = fingerprint()
  fs.rmSync(SERVER_DIST, { recursive: true, force: true })
  await esbuild.build({
    entryPoints: SERVER_ENTRIES,
    outdir: SERVER_DIST,
    outExtension: { '.js': '.cjs' },
    bundle: true,
    // CommonJS, as tsx ran these sources: packages are loaded with require(), which resolves the
    // extensionless deep imports some of them need (ajv/dist/2020) that ES module resolution refuses.
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    // `server-only` marks server modules for Next.js and throws outside its react-server bundles: these
    // are server processes, so it is compiled in as its empty module (and never loaded at run time).
    alias: { 'server-only': './node_modules/server-only/empty.js' },
    tsconfig: 'tsconfig.json',
    sourcemap: 'linked',
    logLevel: 'warning',
    // The generated Prisma client reads import.meta.url, which CommonJS lacks: give it the file's URL.
    define: { 'import.meta.url': '__toolroomModuleUrl' },
    banner: { js: "const __toolroomModuleUrl = require('node:url').pathToFileURL(__filename).href;" },
  })
  fs.writeFileSync(FINGERPRINT_FILE, before)
}

/** Whether esbuild is installed: a production-only install (`npm install --omit=dev`) has none. */
async function canBuild() {
  try {
    await import('esbuild')
    return true
  } catch {
    return false
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const ifStale = process.argv.includes('--if-stale')
  if (ifStale && !serverBuildIsStale()) process.exit(0)
  if (ifStale && !(await canBuild())) {
    // A production install runs what `npm run build` compiled; it has no compiler to rebuild with.
    if (Object.keys(SERVER_ENTRIES).every((name) => fs.existsSync(path.join(SERVER_DIST, `${name}.cjs`)))) process.exit(0)
    console.error(
      `[build] ${SERVER_DIST}/ is missing and esbuild (a devDependency) is not installed: run \`npm run build\` where dev dependencies are installed`,
    )
    process.exit(1)
  }
  const t0 = performance.now()
  await buildServer()
  console.log(`[build] ${Object.keys(SERVER_ENTRIES).length} server entries compiled into ${SERVER_DIST}/ (${Math.round(performance.now() - t0)} ms)`)
}
