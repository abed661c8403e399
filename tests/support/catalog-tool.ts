import { annotationsForLevel } from '@/lib/effective-tools/derive-side-effects'
import type { CatalogTool } from '@/lib/effective-tools/types'

/** A Tool-backed catalog entry, as the resolver receives it: read-only, no overrides, unless told otherwise. */
export function catalogTool(over: Partial<CatalogTool> & { name: string }): CatalogTool {
  const namespace = over.namespace === undefined ? 'default' : over.namespace
  return {
    namespace,
    description: `${over.name} does things`,
    inputSchema: { type: 'object' },
    type: 'function',
    level: 'read_only',
    levelSource: 'declared',
    annotations: annotationsForLevel(over.level ?? 'read_only', true),
    source: { kind: 'Tool', name: over.name, namespace },
    stats: { totalCalls7d: 0, failureRate7d: null },
    ...over,
  }
}
