// The compiled server entries (dist/, scripts/build-server.mjs) that `npm test` builds before it starts
// the e2e servers from them: a spec that starts the worker or the stats rollup runs the same file
// production runs, without compiling its sources again through tsx in every file that starts one
// (docs/design/testing.md, "End-to-end tests").
import fs from 'node:fs'
import path from 'node:path'

export type BuiltEntry = 'worker' | 'stats-rollup'

/** The path of a compiled server entry; throws, naming the command, when `npm test` has not built it. */
export function builtEntry(name: BuiltEntry): string {
  const file = path.resolve('dist', `${name}.cjs`)
  if (!fs.existsSync(file)) throw new Error(`${path.relative(process.cwd(), file)} is missing: run the end-to-end tests with \`npm test e2e\`, which builds it`)
  return file
}
