import type { UnresolvedReference } from '@/lib/effective-tools/types'

export function UnresolvedWarnings({ unresolved }: { unresolved: UnresolvedReference[] }) {
  if (unresolved.length === 0) return null
  return (
    <div role="status" className="rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900">
      <p className="font-semibold">
        {unresolved.length} unresolved reference{unresolved.length === 1 ? '' : 's'}: these contribute no tools until fixed
      </p>
      <ul className="mt-1 space-y-0.5">
        {unresolved.map((u, i) => (
          <li key={i} data-testid="unresolved-reference">
            <code className="font-mono text-xs">{u.field}</code> → <code className="font-mono text-xs">{u.reference}</code>: {u.message}
            {u.inheritedFromUnit && <span className="text-amber-700"> (inherited from unit {u.inheritedFromUnit})</span>}
          </li>
        ))}
      </ul>
    </div>
  )
}
