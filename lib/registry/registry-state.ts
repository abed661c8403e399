// The state every registry-derived answer is made of, as one value that moves whenever any of it may
// have: the registry epoch (registry-changes.ts) and the 7-day call statistics version, since the
// Tool rows' totals and the effective sets' statistics change without a registry change. The ETags of
// registry answers are derived from it (lib/http/conditional-read.ts).
import 'server-only'
import { toolStatsSnapshot } from '@/lib/stats/tool-stats-cache'
import { registryEpoch } from './registry-changes'

/** The state's version in this process, or null while the change listener is down (a change could go unnoticed). */
export async function registryStateVersion(): Promise<string | null> {
  const epoch = registryEpoch()
  if (epoch === null) return null
  const { version: statsVersion } = await toolStatsSnapshot()
  return `${epoch}/${statsVersion}`
}
