// Layers that read one way. A lib/ domain (lib/<domain>/…) that imports another, which imports it
// back, is a circle: neither can be understood, tested or moved without the other. None is left; a
// pair that appears fails this test: untangle it by moving the shared pure rule down to where both
// sides read it (docs/design/README.md, "Layers read one way"). Between domains, imports TypeScript
// erases (`import type`) do not count: they make no module load another. Between single files
// nothing may go round, types included: a file whose types come from a file that imports it cannot
// be read on its own.
import { describe, expect, it } from 'vitest'
import { readModuleGraph } from '@/tests/support/module-graph'

const graph = readModuleGraph()

/** `lib/<domain>/…` → `<domain>`; a top-level lib file is its own domain (`lib/config.ts`). */
function domainOf(file: string): string | null {
  if (!file.startsWith('lib/')) return null
  const parts = file.split('/')
  return parts.length > 2 ? parts[1] : file
}

function domainPairs(): string[] {
  const edges = new Set<string>()
  for (const facts of graph.values())
    for (const target of facts.localImports) {
      const [from, to] = [domainOf(facts.file), domainOf(target)]
      if (from && to && from !== to) edges.add(`${from} -> ${to}`)
    }
  const pairs = new Set<string>()
  for (const edge of edges) {
    const [from, to] = edge.split(' -> ')
    if (edges.has(`${to} -> ${from}`)) pairs.add([from, to].sort().join(' <-> '))
  }
  return [...pairs].sort()
}

/** Every cycle between files, each as the files around it (found by depth-first search). */
function fileCycles(): string[] {
  const cycles = new Set<string>()
  const state = new Map<string, 'open' | 'done'>()
  const stack: string[] = []
  const visit = (file: string) => {
    state.set(file, 'open')
    stack.push(file)
    const facts = graph.get(file)
    for (const next of [...(facts?.localImports ?? []), ...(facts?.typeImports ?? [])]) {
      if (state.get(next) === 'open') {
        const cycle = stack.slice(stack.indexOf(next))
        const start = cycle.indexOf([...cycle].sort()[0])
        cycles.add([...cycle.slice(start), ...cycle.slice(0, start)].join(' -> '))
      } else if (!state.has(next)) visit(next)
    }
    stack.pop()
    state.set(file, 'done')
  }
  for (const file of [...graph.keys()].sort()) if (!state.has(file)) visit(file)
  return [...cycles].sort()
}

describe('layers', () => {
  it('reads the graph (a walk that found no imports would pass vacuously)', () => {
    expect([...graph.values()].filter((m) => m.file.startsWith('lib/') && m.localImports.length > 0).length).toBeGreaterThan(100)
  })

  it('has no pair of lib/ domains importing each other', () => {
    expect(domainPairs()).toEqual([])
  })

  it('has no cycle between files', () => {
    expect(fileCycles()).toEqual([])
  })
})
