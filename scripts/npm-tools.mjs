// Tools that tests run but the project does not depend on (the MCP conformance suite, the MCP
// Inspector): each is installed once from the npm registry, at an exact version, into
// .data/tools/<name>@<version>, as scripts/node-versions.mjs fetches other Node.js versions. Both want
// Node.js >= 22, which they are then run with.
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'

/** The installed package's directory (with its own node_modules), installing it on first use. */
export function ensureNpmTool(name, version, cacheDir, log = () => {}) {
  const dir = path.join(cacheDir, `${name.replace('/', '+')}@${version}`)
  const installed = path.join(dir, 'node_modules', name)
  if (fs.existsSync(path.join(dir, '.complete'))) return installed
  log(`installing ${name}@${version} from the npm registry into ${dir}, once`)
  fs.rmSync(dir, { recursive: true, force: true })
  fs.mkdirSync(dir, { recursive: true })
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'toolroom-test-tool', private: true }))
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--no-save', '--ignore-scripts', '--loglevel=error', `${name}@${version}`], {
    cwd: dir,
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  // Marked complete last, so an interrupted install is redone rather than half used.
  fs.writeFileSync(path.join(dir, '.complete'), '')
  return installed
}

/** The `bin` entry of an installed package, as a path to run with node. */
export function binOf(packageDir, bin) {
  const pkg = JSON.parse(fs.readFileSync(path.join(packageDir, 'package.json'), 'utf8'))
  const entry = typeof pkg.bin === 'string' ? pkg.bin : pkg.bin[bin]
  return path.join(packageDir, entry)
}
