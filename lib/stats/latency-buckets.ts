// Fixed log-scale latency buckets. Every hourly rollup row stores a count per bucket, so p50/p95 of
// any set of hours and dimension values come from summing the arrays: exact counts, bucketed values.
//
// Bounds (milliseconds): one bucket per millisecond up to 8 ms, then each bound is the previous one
// times 2^(1/4) (rounded), up to 10 minutes; slower calls share the last, open bucket. That is
// LATENCY_BUCKET_COUNT buckets. A reported percentile lies in the same bucket as the exact value
// (the smallest latency with at least that share of calls at or below it), so it is off by less
// than the bucket's width: under 1 ms below 8 ms, under 19% of the value above.

const STEP = 2 ** 0.25
const LAST_BOUND_MS = 600_000

/** Lower bounds of buckets 1..n (bucket 0 is [0, 1 ms)); ascending. What `width_bucket` takes. */
export const LATENCY_THRESHOLDS: readonly number[] = (() => {
  const out: number[] = []
  for (let t = 1; t <= LAST_BOUND_MS; t = Math.max(t + 1, Math.round(t * STEP))) out.push(t)
  return out
})()

export const LATENCY_BUCKET_COUNT = LATENCY_THRESHOLDS.length + 1

/** The bucket of a latency: the number of thresholds at or below it (as PostgreSQL's width_bucket). */
export function latencyBucketOf(ms: number): number {
  let lo = 0
  let hi = LATENCY_THRESHOLDS.length
  while (lo < hi) {
    const mid = (lo + hi) >> 1
    if (LATENCY_THRESHOLDS[mid] <= ms) lo = mid + 1
    else hi = mid
  }
  return lo
}

/** [lower, upper) of a bucket in ms; the last bucket's upper bound is its lower bound (open-ended). */
export function latencyBucketBounds(bucket: number): [number, number] {
  const lower = bucket === 0 ? 0 : LATENCY_THRESHOLDS[bucket - 1]
  const upper = bucket < LATENCY_THRESHOLDS.length ? LATENCY_THRESHOLDS[bucket] : lower
  return [lower, upper]
}

/** Adds `from` into `into` (arrays may be shorter than the bucket count: missing means zero). */
export function addHistogram(into: number[], from: readonly number[]): number[] {
  for (let i = 0; i < from.length; i++) into[i] = (into[i] ?? 0) + from[i]
  return into
}

export const emptyHistogram = (): number[] => new Array(LATENCY_BUCKET_COUNT).fill(0)

/**
 * The p-quantile (0 < p ≤ 1) of the latencies counted in `histogram`, in ms with one decimal, or
 * null when it counts nothing. Finds the bucket holding the ceil(p·n)-th smallest latency and
 * interpolates linearly inside it.
 */
export function percentileOf(histogram: readonly number[], p: number): number | null {
  let total = 0
  for (const c of histogram) total += c
  if (total === 0) return null
  const rank = Math.max(1, Math.ceil(p * total))
  let seen = 0
  for (let bucket = 0; bucket < histogram.length; bucket++) {
    const count = histogram[bucket]
    if (count === 0 || seen + count < rank) {
      seen += count
      continue
    }
    const [lower, upper] = latencyBucketBounds(bucket)
    // Integer latencies: a bucket [lower, upper) holds the values lower..upper-1.
    const top = Math.max(lower, upper - 1)
    const value = lower + ((top - lower) * (rank - seen - 0.5)) / count
    return Math.round(Math.min(top, Math.max(lower, value)) * 10) / 10
  }
  return null
}
