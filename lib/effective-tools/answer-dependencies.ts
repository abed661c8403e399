// What an agent's or unit's answers depend on, in the vocabulary of a registry change's scope
// (lib/registry/registry-changes.ts): the agent itself (by id) and each unit of its chain (by name,
// as agents and units refer to them), the first missing one included, since creating it changes the
// answer. Everything else an answer reads (Tools, connectors, servers, policies, side-effect
// policies) is announced as a change to everyone. Design: docs/design/effective-tools.md#caching.
import 'server-only'
import { prisma } from '@/lib/db'
import type { AgentSpec, UnitSpec } from '@/lib/manifests/specs/fleet'
import { agentSubject, unitSubject } from '@/lib/registry/change-subjects'
import type { Row } from '@/lib/resources/kind-adapters'
import { type RegistryReader, registryReader } from './registry-reader'

export async function answerDependencies(kind: 'Agent' | 'Unit', row: Row, reader: RegistryReader = registryReader()): Promise<Set<string>> {
  const spec = row.spec as AgentSpec & UnitSpec
  const subjects = new Set<string>([kind === 'Agent' ? agentSubject(row.id) : unitSubject(row.namespace, row.name)])
  let next = kind === 'Agent' ? spec.unit : spec.parent
  if (!next) return subjects
  const units = await reader.unitsIn(row.namespace)
  // The walk of loadAncestors (load-resolver-input.ts), which stops at a missing unit or a cycle.
  while (next && !subjects.has(unitSubject(row.namespace, next))) {
    subjects.add(unitSubject(row.namespace, next))
    next = units.get(next)?.parent
  }
  return subjects
}

/** answerDependencies of the stored agent or unit `id`; null once it is gone (then nothing is known). */
export async function storedAnswerDependencies(kind: 'Agent' | 'Unit', id: string): Promise<Set<string> | null> {
  const where = { where: { id }, select: { id: true, namespace: true, name: true, spec: true } }
  const row = kind === 'Agent' ? await prisma.agent.findUnique(where) : await prisma.unit.findUnique(where)
  return row ? answerDependencies(kind, row as Row) : null
}
