// Reads asked for while one of the same kind is in flight wait for it and then go out together, in
// one query: after a change that reaches everyone, thousands of answers are recomputed at once, and
// a query's own cost (the round trip, Prisma's and pg's per-query work) was paid once an answer,
// more than the rows themselves (docs/design/effective-tools.md#reads-in-batches). A lone read goes
// out at once. Nothing is kept: each key is read by a query that began after it was asked, so a
// batched read is exactly as fresh as a query of its own.

/**
 * A function of one key whose calls are batched into calls of `loadBatch`, which answers the keys'
 * values in the keys' order. At most one batch is in flight; the keys asked meanwhile make the next.
 * A failed batch rejects each of its keys. A batch holds at most `maxBatch` keys, so one query stays
 * of a bounded size however many wait.
 */
export function batchedLoads<K, V>(loadBatch: (keys: K[]) => Promise<V[]>, maxBatch = 100): (key: K) => Promise<V> {
  const pending: { key: K; resolve: (value: V) => void; reject: (error: unknown) => void }[] = []
  let busy = false

  const flush = () => {
    if (pending.length === 0) {
      busy = false
      return
    }
    const batch = pending.splice(0, maxBatch)
    loadBatch(batch.map((p) => p.key))
      .then(
        (values) => batch.forEach((p, i) => p.resolve(values[i])),
        (error) => batch.forEach((p) => p.reject(error)),
      )
      .finally(flush)
  }

  return (key) =>
    new Promise<V>((resolve, reject) => {
      pending.push({ key, resolve, reject })
      if (busy) return
      busy = true
      // Keys asked in the same turn (a Promise.all) go in the first batch too.
      queueMicrotask(flush)
    })
}
