// The names a registry change's scope uses for what it touched (lib/registry/registry-changes.ts), the
// same names the Agent and Unit triggers write into their NOTIFY (migration
// 20261127174000_scoped_registry_changes): an agent by id, a unit by namespace and name, as agents and
// units refer to them. Design: docs/design/effective-tools.md#caching.
import { type ChangeScope, changeOf, EVERYONE } from './registry-changes'

export const agentSubject = (id: string) => `Agent:${id}`
export const unitSubject = (namespace: string, name: string) => `Unit:${namespace}/${name}`

/**
 * The scope of a committed write of these resources, for noteRegistryChange: their agents and units,
 * or everyone as soon as one is of another kind (its reach is not cheaply known).
 */
export function changeOfResources(resources: { kind: string; id: string | null; namespace: string; name: string }[]): ChangeScope {
  const subjects: string[] = []
  for (const r of resources) {
    if (r.kind === 'Agent' && r.id) subjects.push(agentSubject(r.id))
    else if (r.kind === 'Unit') subjects.push(unitSubject(r.namespace, r.name))
    else return EVERYONE
  }
  return subjects.length > 0 ? changeOf(subjects) : EVERYONE
}
