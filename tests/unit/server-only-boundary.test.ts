// `import 'server-only'` makes Next.js refuse to build a client bundle that holds the module (the
// database client, secrets, outbound requests, process configuration). This holds the marking itself:
// every lib module that touches the server directly carries it, and no client module reaches one that
// does, so the build-time guard is never the first to notice.
import { describe, expect, it } from 'vitest'
import { clientModules, type ModuleFacts, readModuleGraph } from '@/tests/support/module-graph'

// Packages that only work in a server process: a module importing one at run time is a server module.
const SERVER_PACKAGES = [
  /^lib\/generated\//,
  /^pg$/,
  /^pg-boss$/,
  /^undici$/,
  /^better-auth(\/|$)/,
  /^@better-auth\//,
  /^pino$/,
  /^prom-client$/,
  /^@opentelemetry\//,
  /^@prisma\//,
  /^@modelcontextprotocol\//,
  /^standardwebhooks$/,
  /^next\/headers$/,
]

/** Why a module is a server module on its own account, or null when it is not. */
function serverReason(facts: ModuleFacts): string | null {
  const databaseModules = ['lib/db.ts', 'lib/sql.ts']
  if (databaseModules.some((m) => facts.file === m || facts.localImports.includes(m))) return 'uses the database client'
  const builtIn = facts.externalImports.find((specifier) => specifier.startsWith('node:'))
  if (builtIn) return `imports ${builtIn}`
  const serverPackage = facts.externalImports.find((specifier) => SERVER_PACKAGES.some((pattern) => pattern.test(specifier)))
  if (serverPackage) return `imports ${serverPackage}`
  if (facts.touchesProcess) return 'reads or changes process state'
  return null
}

const graph = readModuleGraph()
const libModules = [...graph.values()].filter((facts) => facts.file.startsWith('lib/'))

describe("import 'server-only'", () => {
  it('marks every lib module that touches the database, Node.js, a server package or the process', () => {
    const unmarked = libModules.filter((facts) => !facts.serverOnly && serverReason(facts)).map((facts) => `${facts.file} (${serverReason(facts)})`)
    expect(unmarked, "add `import 'server-only'` to these modules").toEqual([])
  })

  it('is reached by no client module', () => {
    const reached = clientModules(graph)
    const leaks = [...reached].filter(([file]) => graph.get(file)?.serverOnly).map(([, chain]) => chain.join(' → '))
    expect(leaks, 'a client module imports a server-only one (chain from the client file)').toEqual([])
  })

  it('sees both sides of the boundary', () => {
    // Guards the walk itself: a resolver that found no imports would pass the checks above vacuously.
    const reached = clientModules(graph)
    expect(reached.has('lib/client/api.ts')).toBe(true)
    expect(reached.has('lib/refs/resource-ref.ts')).toBe(true)
    expect(graph.get('lib/db.ts')?.serverOnly).toBe(true)
    expect(libModules.filter((facts) => facts.serverOnly).length).toBeGreaterThan(100)
  })
})
