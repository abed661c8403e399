import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { sourceFingerprint } from './source-fingerprint.mjs'

/**
 * Secrets are encrypted with TOOLROOM_SECRET_KEY. Without one, a key is generated once and kept in
 * the data directory, which suits the embedded database; a shared database needs the same key in
 * every process, so there it is only a fallback with a warning. `configured` is the key the
 * configuration holds (lib/config.ts), if any.
 */
export function ensureSecretKey(dataDir, { configured, shared, log }) {
  if (configured) return
  const file = path.join(dataDir, 'secret-key')
  if (!fs.existsSync(file)) {
    fs.mkdirSync(dataDir, { recursive: true })
    fs.writeFileSync(file, randomBytes(32).toString('base64'), { mode: 0o600 })
  }
  process.env.TOOLROOM_SECRET_KEY = fs.readFileSync(file, 'utf8').trim()
  if (shared) log(`TOOLROOM_SECRET_KEY is not set: using the local key in ${file}; set it to the same value for every process that shares this database`)
}

const BUILD_INPUTS = [
  'app',
  'components',
  'lib',
  'instrumentation.ts',
  'proxy.ts',
  'public',
  'next.config.mjs',
  'package.json',
  'package-lock.json',
  'tsconfig.json',
  'postcss.config.mjs',
  'prisma/schema.prisma',
]
const FINGERPRINT_FILE = '.next/toolroom-build-fingerprint'

const fingerprint = () => sourceFingerprint(BUILD_INPUTS)

/**
 * A production build is needed on a fresh clone and whenever a source file changed since the last.
 * Returns the sources' fingerprint when one is needed (given to recordBuild once it is done), else null.
 */
export function needsBuild() {
  const now = fingerprint()
  if (!fs.existsSync('.next/BUILD_ID') || !fs.existsSync(FINGERPRINT_FILE)) return now
  return fs.readFileSync(FINGERPRINT_FILE, 'utf8') !== now ? now : null
}

/**
 * `built`: the fingerprint needsBuild gave before the build, not one taken after it, so that a source
 * edited while the build ran makes the next start build again.
 */
export function recordBuild(built) {
  fs.writeFileSync(FINGERPRINT_FILE, built)
}
