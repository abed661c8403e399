// How much memory the effective-tools answer cache may hold when TOOLROOM_ANSWER_CACHE_MB is unset:
// a quarter of what the process may use (its cgroup's memory limit in a container, else the
// machine's memory), at most 2 GiB. The cache's Buffers live outside the JS heap, beside the heap
// itself, the other caches, open streams and the runtime: a pod with a 1 GiB limit gets 256 MB, so a
// full cache no longer gets the pod killed for memory (docs/operations.md#sizing).
import 'server-only'
import os from 'node:os'

const MAX_DEFAULT_MB = 2048
/** Below this, answers are not worth caching at all: one large agent's answer is about 300 KB. */
const MIN_USEFUL_MB = 16

export function defaultAnswerCacheMb(limitBytes: number): number {
  const quarter = Math.floor(limitBytes / 4 / (1024 * 1024))
  if (quarter < MIN_USEFUL_MB) return 0
  return Math.min(MAX_DEFAULT_MB, quarter)
}

let memoryLimit: number | undefined

/**
 * The memory this process may use: its cgroup's limit where there is one (Node reports an
 * unconstrained process as 2^64 or 0), else the machine's memory. Read once: each read of the
 * cgroup's limit is a read of its files, and the answer cache asks on every answer it keeps
 * (1 % of a full-fleet change's CPU at 5,000 watchers, BENCHMARKS.md).
 */
export function processMemoryLimitBytes(): number {
  if (memoryLimit === undefined) {
    const constrained = (process as { constrainedMemory?: () => number | undefined }).constrainedMemory?.() ?? 0
    const total = os.totalmem()
    memoryLimit = constrained > 0 && constrained < total ? constrained : total
  }
  return memoryLimit
}

const MAX_ENTRY_PIECES_MB = 256

/**
 * How much the serialized entries shared by answers (serialize-effective-tools.ts) may hold: a
 * sixteenth of what the process may use, at most 256 MB, whatever the answer cache is given (they
 * are what makes recomputing answers cheap, cached or not). They live one registry epoch.
 */
export function entryPiecesBudgetBytes(limitBytes: number): number {
  return Math.min(MAX_ENTRY_PIECES_MB * 1024 * 1024, Math.floor(limitBytes / 16))
}
