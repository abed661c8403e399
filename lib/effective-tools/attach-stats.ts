// An entry's 7-day call statistics: those of its own resolved tool (by source and name), not of every
// tool of its name. Filled in place, the same way for entries served as objects and as text.
import { toolStatKey } from '@/lib/stats/tool-stat-key'
import { statsOfTool, type ToolStatsSnapshot } from '@/lib/stats/tool-stats-cache'
import type { EffectiveTool } from './types'

export function attachStats(entry: EffectiveTool, stats: ToolStatsSnapshot): void {
  Object.assign(entry, statsOfTool(stats, toolStatKey(entry.source, entry.name)))
}
