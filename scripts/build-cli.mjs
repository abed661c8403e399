// `npm run build:cli` (run by postinstall): compiles the toolroom CLI (cli/src) to plain JavaScript in
// cli/dist, which `npx toolroom` runs with `node`. With `--if-stale` it compiles only when a source
// changed since the last compile (the fingerprint in cli/dist): `npm test` makes sure of it once per
// run, before the suites that run the binary, instead of each of their files compiling it again
// (docs/design/testing.md, "The CLI's binary").
import { execFile } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { promisify } from 'node:util'
import { fileURLToPath } from 'node:url'
import { sourceFingerprint } from './source-fingerprint.mjs'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const DIST = path.join(ROOT, 'cli/dist')
const BIN = path.join(DIST, 'toolroom.mjs')
const FINGERPRINT_FILE = path.join(DIST, '.fingerprint')
// The sources, the compiler's options, and the lockfile (the TypeScript and commander it compiles against).
const INPUTS = ['cli/src', 'cli/tsconfig.json', 'package-lock.json']

const fingerprint = () => sourceFingerprint(INPUTS.map((input) => path.join(ROOT, input)))

export function cliBuildIsStale() {
  if (!fs.existsSync(BIN) || !fs.existsSync(FINGERPRINT_FILE)) return true
  return fs.readFileSync(FINGERPRINT_FILE, 'utf8') !== fingerprint()
}

/** Compiles the CLI into cli/dist (tsc refuses to emit on a type error: the build then fails). */
export async function buildCli() {
  const before = fingerprint()
  fs.rmSync(FINGERPRINT_FILE, { force: true })
  await promisify(execFile)(process.execPath, [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', path.join(ROOT, 'cli/tsconfig.json')], { cwd: ROOT })
  fs.chmodSync(BIN, 0o755)
  fs.writeFileSync(FINGERPRINT_FILE, before)
}

/** Compiles the CLI unless cli/dist already holds its current sources; says whether it compiled. */
export async function buildCliIfStale() {
  if (!cliBuildIsStale()) return false
  await buildCli()
  return true
}

// Run as a script. No top-level await: scripts/test.mjs imports this module, and a module that awaits
// at its top cannot be loaded with require() (as test tools load their imports) at all.
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  ;(process.argv.includes('--if-stale') ? buildCliIfStale() : buildCli()).catch((error) => {
    // tsc's findings are on its stdout.
    process.stderr.write(`${error.stdout ?? ''}${error.stderr ?? ''}`)
    console.error(`building the CLI failed: ${error.message.split('\n')[0]}`)
    process.exit(1)
  })
}
