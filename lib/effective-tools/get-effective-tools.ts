// Effective tool set of a stored agent or unit: load, resolve, then attach each entry's 7-day call
// statistics (from the stats cache, which moves on its own clock, not the registry's): those of the
// entry's own resolved tool, not of every tool of its name.
import type { Row } from '@/lib/resources/kind-adapters'
import { toolStatKey } from '@/lib/stats/tool-stat-key'
import { statsOfTool, toolStatsSnapshot } from '@/lib/stats/tool-stats-cache'
import { loadResolverInput } from './load-resolver-input'
import { resolveEffectiveTools } from './resolve-effective-tools'
import type { EffectiveToolSet } from './types'
import { policiesOnTools } from '@/lib/policy/policy-set'

export async function getEffectiveTools(kind: 'Agent' | 'Unit', row: Row): Promise<EffectiveToolSet> {
  const [set, stats] = await Promise.all([loadResolverInput(kind, row).then(resolveEffectiveTools), toolStatsSnapshot()])
  // Entries are fresh objects per resolve: filled in place.
  for (const entry of [...set.tools, ...set.excluded]) Object.assign(entry, statsOfTool(stats, toolStatKey(entry.source, entry.name)))
  if (kind === 'Agent') await policiesOnTools(row, set.tools)
  return set
}
