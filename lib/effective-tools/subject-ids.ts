// Which agent or unit an answer's address names (an id, or a name in a namespace), remembered per
// process so that every address of one subject finds the same cached answer (subject-answers.ts)
// without reading its row again. Kept until a registry change touches the subject (as cached answers
// are: registry-changes.ts), and only while the change listener is up. Design:
// docs/design/effective-tools.md#caching.
import 'server-only'
import { agentSubject, unitSubject } from '@/lib/registry/change-subjects'
import { type ChangeScope, onRegistryChange, registryEpoch, touches } from '@/lib/registry/registry-changes'
import type { Row } from '@/lib/resources/kind-adapters'
import { isUuid } from '@/lib/refs/uuid'

type Subject = 'Agent' | 'Unit'

interface Known {
  id: string
  dependsOn: ReadonlySet<string>
}

interface Memo {
  ids: Map<string, Known>
  stopListening: (() => void) | null
}

const memo: Memo = ((globalThis as { __toolroomSubjectIds?: Memo }).__toolroomSubjectIds ??= { ids: new Map(), stopListening: null })

// An id names its row whatever the namespace asked with (getRow: an id wins over a name), so it is
// remembered once, not once per namespace a client sends; a name only in its namespace.
const idAddress = (kind: Subject, id: string) => JSON.stringify([kind, id.toLowerCase()])
const nameAddress = (kind: Subject, name: string, namespace: string | undefined) => JSON.stringify([kind, namespace ?? 'default', name])

function forget(scope: ChangeScope) {
  if (scope.everyone) return memo.ids.clear()
  for (const [address, known] of memo.ids) if (touches(scope, known.dependsOn)) memo.ids.delete(address)
}

/** The id of the subject this address named when last read, unless a change may have moved it since; undefined if not known. */
export function knownSubjectId(kind: Subject, idOrName: string, namespace: string | undefined): string | undefined {
  // While the listener is down a change could go unnoticed: nothing is taken from the memo then.
  if (registryEpoch() === null) return undefined
  const byId = isUuid(idOrName) ? memo.ids.get(idAddress(kind, idOrName)) : undefined
  return (byId ?? memo.ids.get(nameAddress(kind, idOrName, namespace)))?.id
}

/**
 * Remembers that the address named `row`, read by a read that began at registry epoch `epoch`: only if
 * no change has been announced since (one that came between the read and now would not have made
 * this process forget it).
 */
export function rememberSubjectId(kind: Subject, idOrName: string, namespace: string | undefined, row: Row, epoch: number | null): void {
  memo.stopListening ??= onRegistryChange(forget)
  if (epoch === null || registryEpoch() !== epoch) return
  // A unit is named by its namespace and name in what a change touches (change-subjects.ts), an agent by its id.
  const subject = kind === 'Agent' ? agentSubject(row.id) : unitSubject(row.namespace, row.name)
  const address = isUuid(idOrName) && row.id.toLowerCase() === idOrName.toLowerCase() ? idAddress(kind, row.id) : nameAddress(kind, idOrName, namespace)
  memo.ids.set(address, { id: row.id, dependsOn: new Set([subject]) })
}
