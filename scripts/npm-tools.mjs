// Tools that tests run beside the project (the MCP conformance suite, the MCP Inspector) are
// devDependencies pinned in package.json, so a run installs nothing from the registry and the lockfile
// says exactly what ran. Both want Node.js >= 22, which the tests run them with
// (scripts/node-versions.mjs).
import { createRequire } from 'node:module'
import fs from 'node:fs'
import path from 'node:path'

const require = createRequire(import.meta.url)

/** The installed package's directory; fails loudly when it is missing or not the version package.json pins. */
export function installedTool(name) {
  let manifest
  try {
    manifest = require.resolve(`${name}/package.json`)
  } catch {
    throw new Error(`${name} is not installed: it is a devDependency, run \`npm install\``)
  }
  const pinned = JSON.parse(fs.readFileSync(path.join(import.meta.dirname, '..', 'package.json'), 'utf8')).devDependencies?.[name]
  const { version } = JSON.parse(fs.readFileSync(manifest, 'utf8'))
  if (!pinned) throw new Error(`${name} is not a devDependency in package.json`)
  if (pinned !== version) throw new Error(`${name} ${version} is installed, package.json pins ${pinned}: run \`npm install\``)
  return path.dirname(manifest)
}

/** The `bin` entry of an installed package, as a path to run with node. */
export function binOf(packageDir, bin) {
  const pkg = JSON.parse(fs.readFileSync(path.join(packageDir, 'package.json'), 'utf8'))
  const entry = typeof pkg.bin === 'string' ? pkg.bin : pkg.bin[bin]
  return path.join(packageDir, entry)
}
