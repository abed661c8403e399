// A fingerprint of source trees (path, size and modification time of every file, generated Prisma
// code left out), so `npm start` and the server build redo their work only when a source changed.
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'

/**
 * @param {string[]} inputs files and directories
 * @param {(file: string) => boolean} [counts] which files count (all by default)
 */
export function sourceFingerprint(inputs, counts = () => true) {
  const hash = createHash('sha256')
  const visit = (p) => {
    if (!fs.existsSync(p) || p.startsWith(path.join('lib', 'generated'))) return
    const stat = fs.statSync(p)
    if (stat.isDirectory()) for (const entry of fs.readdirSync(p).sort()) visit(path.join(p, entry))
    else if (counts(p)) hash.update(`${p}\0${stat.size}\0${stat.mtimeMs}\n`)
  }
  for (const input of inputs) visit(input)
  return hash.digest('hex')
}
